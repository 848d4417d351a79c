/// The Markdown templates. Every `{{value}}` goes through the MARKDOWN content type (text
/// characters Markdown would read as markup are backslash-escaped); code (spans and blocks) is
/// written raw inside a fence long enough for it.
enum MarkdownTemplates {
    static let partials: [String: String] = [
        "span": span, "runs": runs, "block": block, "code": code, "outcome": outcome, "events": events,
        "impossibility": impossibility, "live": live, "statement": statement, "note": note,
    ]

    static let span = "{{% CONTENT_TYPE: MARKDOWN}}{{{fence}}}{{{pad}}}{{{text}}}{{{pad}}}{{{fence}}}"

    static let runs = """
        {{% CONTENT_TYPE: MARKDOWN}}{{#runs}}{{#isCode}}{{#span}}{{> span}}{{/span}}{{/isCode}}{{^isCode}}{{text}}{{/isCode}}{{/runs}}
        """

    static let block = """
        {{% CONTENT_TYPE: MARKDOWN}}
        {{#isParagraph}}{{> runs}}

        {{/isParagraph}}
        {{#isBullets}}
        {{#items}}- {{> runs}}
        {{/items}}

        {{/isBullets}}
        {{#isNumbered}}
        {{#items}}1. {{> runs}}
        {{/items}}

        {{/isNumbered}}
        {{#isCode}}
        ```
        {{#codeLines}}{{{source}}}
        {{/codeLines}}
        ```

        {{/isCode}}

        """

    static let code = """
        ```
        {{#code}}{{{lineNumber}}} │ {{{source}}}
        {{/code}}
        ```

        """

    /// What is asked: the snippet and the question's text.
    static let statement = """
        {{#hasCode}}
        {{> code}}
        {{/hasCode}}
        {{#prompt}}
        {{> block}}
        {{/prompt}}

        """

    static let outcome = """
        {{% CONTENT_TYPE: MARKDOWN}}{{#printed}}{{> span}}{{/printed}} *{{ending}}*
        """

    static let events = """
        {{% CONTENT_TYPE: MARKDOWN}}{{#isLine}}{{#line}}{{> span}}{{/line}}{{/isLine}}{{^isLine}}{{words}}{{/isLine}}{{^isLast}}{{#isBeforeLast}} or {{/isBeforeLast}}{{^isBeforeLast}}, {{/isBeforeLast}}{{/isLast}}
        """

    static let impossibility = """
        {{% CONTENT_TYPE: MARKDOWN}}{{#outcome}}{{> outcome}}{{/outcome}} ({{nearMiss}}) cannot happen: {{#hasPrefix}}a schedule can print {{#prefix}}{{> span}}{{/prefix}}, but then {{#hasNext}}only {{#next}}{{> events}}{{/next}} can come, not {{/hasNext}}{{^hasNext}}nothing comes, not {{/hasNext}}{{#wanted}}{{> events}}{{/wanted}}.{{/hasPrefix}}{{^hasPrefix}}no schedule starts with {{#wanted}}{{> events}}{{/wanted}}{{#hasNext}}: the run starts with {{#next}}{{> events}}{{/next}}{{/hasNext}}.{{/hasPrefix}}{{#blockers}} {{detail}} (rule: {{rule}}){{/blockers}}{{^hasBlockers}} No schedule reaches it.{{/hasBlockers}}
        """

    static let live = """
        {{% CONTENT_TYPE: MARKDOWN}}
        {{#live}}
        **Live: {{runs}} runs on libdispatch ({{jitter}})**

        {{#rows}}- {{#outcome}}{{> outcome}}{{/outcome}}: {{count}}×{{^expected}} — **UNEXPECTED: the model says it cannot happen**{{/expected}}
        {{/rows}}
        {{#hasUnseen}}

        Possible but not seen in these runs: {{#unseen}}{{> outcome}}; {{/unseen}}
        {{/hasUnseen}}

        {{/live}}
        """

    /// A whole file: one or more sections already rendered.
    static let document = """
        {{% CONTENT_TYPE: MARKDOWN}}
        {{#sections}}
        {{{.}}}
        {{/sections}}
        """

    static let sheetSection = """
        {{% CONTENT_TYPE: MARKDOWN}}
        # {{header.sheetTitle}}

        **Variant {{header.variantID}} of {{header.variantCount}}** · seed {{header.seed}}{{header.studentSuffix}} · {{header.questionCount}} questions · {{header.totalPoints}} points

        {{#header.hasStudent}}
        Name: **{{header.studentName}}** · ID: **{{header.studentID}}** · Date: ______________
        {{/header.hasStudent}}
        {{^header.hasStudent}}
        Name: ______________________________   Date: ______________
        {{/header.hasStudent}}

        {{rules}}

        ```
        {{#prelude}}{{{lineNumber}}} │ {{{source}}}
        {{/prelude}}
        ```

        {{notation}}

        {{#hasTickRule}}
        {{tickRule}}

        {{/hasTickRule}}
        {{#questions}}
        ## {{number}}. {{title}} ({{points}} {{pointsWord}})

        {{> statement}}
        {{#isWrite}}
        *What can it print? Write every possible outcome, one per line, each ending in finished or deadlock.*

        {{#answerLines}}______________________________________________________________________

        {{/answerLines}}
        {{/isWrite}}
        {{#isSelect}}
        *Tick every outcome that can happen.*

        {{#outcomeOptions}}- [ ] {{letter}}) {{#outcome}}{{> outcome}}{{/outcome}}
        {{/outcomeOptions}}

        {{/isSelect}}
        {{#isChoice}}
        *Tick every correct option.*

        {{#choices}}- [ ] {{letter}}) {{> runs}}
        {{/choices}}

        {{/isChoice}}
        {{#isShort}}
        {{#answerLines}}______________________________________________________________________

        {{/answerLines}}
        {{/isShort}}
        {{/questions}}
        """

    /// One question's note: the question, its answer with every reason, the explanation.
    static let note = """
        {{% CONTENT_TYPE: MARKDOWN}}
        ## {{noteNumber}}. {{title}} · `{{{questionID}}}`{{#hasAskedBy}} · asked by {{askedBy}}{{/hasAskedBy}}

        {{> statement}}
        {{#isTrace}}

        **Every possible outcome ({{outcomeCount}})**

        {{#outcomes}}- {{> outcome}}{{#hasMachines}} ({{machines}}){{/hasMachines}}{{#hasReason}}: {{reason}}{{/hasReason}}
        {{/outcomes}}
        {{#hasElsewhere}}

        **Only on other machines** (neither needed nor wrong)

        {{#elsewhere}}- {{> outcome}} ({{machines}})
        {{/elsewhere}}
        {{/hasElsewhere}}

        {{#races}}
        **Data race:** {{.}}

        {{/races}}
        {{#hasNearMisses}}
        **{{nearMissHeading}}**

        {{#nearMisses}}- {{> impossibility}}
        {{/nearMisses}}

        {{/hasNearMisses}}
        {{#hasLive}}
        {{> live}}
        {{/hasLive}}
        {{/isTrace}}
        {{#isChoice}}

        **The options**

        {{#options}}- {{> runs}} — {{#isCorrect}}**correct**{{/isCorrect}}{{^isCorrect}}**wrong**{{#hasWhy}}: {{#why}}{{#isCode}}{{#span}}{{> span}}{{/span}}{{/isCode}}{{^isCode}}{{text}}{{/isCode}}{{/why}}{{/hasWhy}}{{/isCorrect}}
        {{/options}}

        {{/isChoice}}
        {{#isShort}}

        **Model answer**

        {{#modelAnswer}}
        {{> block}}
        {{/modelAnswer}}
        {{#hasKeyIdeas}}
        **Key ideas**

        {{#keyIdeas}}- {{idea}}
        {{/keyIdeas}}

        {{/hasKeyIdeas}}
        {{/isShort}}
        **Why**

        {{#explanation}}
        {{> block}}
        {{/explanation}}
        {{#hasSource}}
        *Source: {{source}}*

        {{/hasSource}}
        """

    static let keySection = """
        {{% CONTENT_TYPE: MARKDOWN}}
        # {{header.sheetTitle}} — answer key

        **Variant {{header.variantID}} of {{header.variantCount}}** · seed {{header.seed}}{{header.studentSuffix}} · {{header.questionCount}} questions · {{header.totalPoints}} points · every answer computed by the model when this key was written · why each is right: the answer notes

        {{#questions}}
        ## {{number}}. {{title}} ({{points}} {{pointsWord}}) · `{{{questionID}}}` · note {{noteNumber}}{{#noteIsBelow}} (below){{/noteIsBelow}}

        {{#isWrite}}
        **Every possible outcome ({{outcomeCount}})**

        {{#outcomes}}- {{> outcome}}{{#hasMachines}} ({{machines}}){{/hasMachines}}
        {{/outcomes}}
        {{#hasElsewhere}}

        Only on other machines, neither needed nor wrong:

        {{#elsewhere}}- {{> outcome}} ({{machines}})
        {{/elsewhere}}
        {{/hasElsewhere}}

        {{/isWrite}}
        {{#isSelect}}
        **Tick: {{ticks}}**{{#hasCannotHappen}} · cannot happen: {{cannotHappen}}{{/hasCannotHappen}}

        {{/isSelect}}
        {{#isChoice}}
        **Correct: {{correctLetters}}**

        {{/isChoice}}
        {{#isShort}}
        {{#hasKeyIdeas}}
        **Key ideas**

        {{#keyIdeas}}- {{idea}}
        {{/keyIdeas}}

        {{/hasKeyIdeas}}
        {{^hasKeyIdeas}}
        **Model answer: note {{noteNumber}}**

        {{/hasKeyIdeas}}
        {{/isShort}}
        **Scoring:** {{rule}}

        {{/questions}}
        {{#hasOwnNotes}}
        **Notes on the questions only this variant asks**

        {{#ownNotes}}
        {{> note}}
        {{/ownNotes}}
        {{/hasOwnNotes}}
        """

    static let notesSection = """
        {{% CONTENT_TYPE: MARKDOWN}}
        # {{header.sheetTitle}} — answer notes

        **{{header.scope}}** · seed {{header.seed}} · {{header.noteCount}} {{header.questionsWord}} · why each answer is right, once for every variant · each variant's key gives its order and letters and names these notes{{#header.hasOwnNotes}} · a question only one variant asks (a generated twin) has its note at the end of that variant's key{{/header.hasOwnNotes}}

        {{#header.isEmpty}}
        Every question is asked by one variant only: each key ends with the notes on its questions.

        {{/header.isEmpty}}

        {{#notes}}
        {{> note}}
        {{/notes}}
        """
}
