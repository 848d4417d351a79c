/// The HTML templates (Mustache, HTML-escaping every `{{value}}`). The output is also well-formed XML (void elements closed, no named entities) so that it can be
/// checked with an XML parser. Triple braces appear only for the style sheet and for sections these templates rendered.
enum HTMLTemplates {
    static let partials: [String: String] = [
        "runs": runs, "block": block, "code": code, "outcome": outcome, "events": events,
        "impossibility": impossibility, "live": live, "statement": statement, "note": note,
    ]

    /// A paragraph's text runs: plain text and `code` spans.
    static let runs = """
        {{#runs}}{{#isCode}}<code>{{text}}</code>{{/isCode}}{{^isCode}}{{text}}{{/isCode}}{{/runs}}
        """

    /// One block of prose.
    static let block = """
        {{#isParagraph}}<p>{{> runs}}</p>{{/isParagraph}}\
        {{#isBullets}}<ul>{{#items}}<li>{{> runs}}</li>{{/items}}</ul>{{/isBullets}}\
        {{#isNumbered}}<ol>{{#items}}<li>{{> runs}}</li>{{/items}}</ol>{{/isNumbered}}\
        {{#isCode}}<pre class="code">{{#codeLines}}{{^isFirst}}\n{{/isFirst}}{{source}}{{/codeLines}}</pre>{{/isCode}}

        """

    /// A snippet with line numbers (the key's reasons name lines by number), a block per line so
    /// that a wrapped line hangs beside its number.
    static let code = """
        <pre class="code numbered">{{#code}}<span class="line"><span class="ln">{{lineNumber}}</span>{{source}}</span>{{/code}}</pre>

        """

    /// What is asked: the snippet and the question's text.
    static let statement = """
        {{#hasCode}}{{> code}}{{/hasCode}}
        {{#prompt}}{{> block}}{{/prompt}}

        """

    static let outcome = """
        <code class="outcome">{{printed.text}}</code> <span class="ending">{{ending}}</span>
        """

    /// One event of a list ("`3`, `4` or the end of the run"), with the separator after it.
    static let events = """
        {{#isLine}}<code>{{line.text}}</code>{{/isLine}}{{^isLine}}{{words}}{{/isLine}}{{^isLast}}{{#isBeforeLast}} or {{/isBeforeLast}}{{^isBeforeLast}}, {{/isBeforeLast}}{{/isLast}}
        """

    static let impossibility = """
        <span class="near-miss">{{#outcome}}{{> outcome}}{{/outcome}} <em>({{nearMiss}})</em></span> cannot happen: \
        {{#hasPrefix}}a schedule can print <code>{{prefix.text}}</code>, but then {{#hasNext}}only {{#next}}{{> events}}{{/next}} can come, not {{/hasNext}}{{^hasNext}}nothing comes, not {{/hasNext}}{{#wanted}}{{> events}}{{/wanted}}.{{/hasPrefix}}\
        {{^hasPrefix}}no schedule starts with {{#wanted}}{{> events}}{{/wanted}}{{#hasNext}}: the run starts with {{#next}}{{> events}}{{/next}}{{/hasNext}}.{{/hasPrefix}}\
        {{#blockers}}<span class="because">{{detail}} <span class="rule">(rule: {{rule}})</span></span>{{/blockers}}\
        {{^hasBlockers}}<span class="because">No schedule reaches it.</span>{{/hasBlockers}}
        """

    static let live = """
        {{#live}}
        <div class="live"><p class="label">Live: {{runs}} runs on libdispatch ({{jitter}})</p>
        <table class="outcomes">
        {{#rows}}<tr><td>{{#outcome}}<code>{{printed.text}}</code></td><td>{{ending}}{{/outcome}}</td><td class="count">{{count}}×</td>{{^expected}}<td><strong>UNEXPECTED: the model says it cannot happen</strong></td>{{/expected}}</tr>
        {{/rows}}
        </table>
        {{#hasUnseen}}<p>Possible but not seen in these runs: {{#unseen}}<code>{{printed.text}}</code> {{ending}}; {{/unseen}}</p>{{/hasUnseen}}
        </div>
        {{/live}}
        """

    /// A whole file: one or more sections already rendered.
    static let document = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8" />
        <meta name="generator" content="gcdquiz" />
        <title>{{documentTitle}}</title>
        <style>
        {{{css}}}
        </style>
        </head>
        <body class="{{bodyClass}}">
        {{#sections}}
        {{{.}}}
        {{/sections}}
        </body>
        </html>

        """

    /// One variant's question sheet.
    static let sheetSection = """
        <section class="variant sheet" id="sheet-{{header.variantID}}">
        <header class="sheet-header">
        <h1 class="sheet-title" data-running="{{header.runningTitle}}" data-bookmark="{{header.sheetBookmark}}" data-footer="{{header.sheetFooter}}">{{header.sheetTitle}}</h1>
        <p class="variant-line">Variant {{header.variantID}} of {{header.variantCount}} · seed {{header.seed}}{{header.studentSuffix}}</p>
        {{#header.hasStudent}}<p class="name-line">Name <strong class="student">{{header.studentName}}</strong> · ID <strong class="student">{{header.studentID}}</strong> · Date <span class="blank"></span></p>{{/header.hasStudent}}
        {{^header.hasStudent}}<p class="name-line">Name <span class="blank wide"></span> Date <span class="blank"></span></p>{{/header.hasStudent}}
        <p class="totals">{{header.questionCount}} questions · {{header.totalPoints}} points</p>
        </header>
        <div class="prelude">
        <p>{{rules}}</p>
        <pre class="code numbered">{{#prelude}}<span class="line"><span class="ln">{{lineNumber}}</span>{{source}}</span>{{/prelude}}</pre>
        <p>{{notation}}</p>
        {{#hasTickRule}}<p class="tick-rule">{{tickRule}}</p>{{/hasTickRule}}
        </div>
        {{#questions}}
        <div class="question">
        <h2><span class="qnum">{{number}}.</span> {{title}} <span class="points">({{points}} {{pointsWord}})</span></h2>
        {{> statement}}
        {{#isWrite}}
        <p class="instruction">What can it print? Write every possible outcome, one per line, each ending in <em>finished</em> or <em>deadlock</em>.</p>
        <div class="answer-lines">{{#answerLines}}<div class="writing-line"></div>{{/answerLines}}</div>
        {{/isWrite}}
        {{#isSelect}}
        <p class="instruction">Tick every outcome that can happen.</p>
        <ul class="options">{{#outcomeOptions}}<li><span class="box"></span><span class="letter">{{letter}})</span>{{#outcome}}{{> outcome}}{{/outcome}}</li>{{/outcomeOptions}}</ul>
        {{/isSelect}}
        {{#isChoice}}
        <p class="instruction">Tick every correct option.</p>
        <ul class="options">{{#choices}}<li><span class="box"></span><span class="letter">{{letter}})</span>{{> runs}}</li>{{/choices}}</ul>
        {{/isChoice}}
        {{#isShort}}
        <div class="answer-lines">{{#answerLines}}<div class="writing-line"></div>{{/answerLines}}</div>
        {{/isShort}}
        </div>
        {{/questions}}
        </section>
        """

    /// One question's note: the question, its answer with every reason, the explanation.
    static let note = """
        <div class="question note">
        <h2><span class="qnum">{{noteNumber}}.</span> {{title}}</h2>
        <p class="qid">{{questionID}}{{#hasAskedBy}} · asked by {{askedBy}}{{/hasAskedBy}}</p>
        {{> statement}}
        {{#isTrace}}
        <p class="answer"><strong>Every possible outcome ({{outcomeCount}})</strong></p>
        <table class="outcomes">
        {{#outcomes}}<tr><td><code>{{printed.text}}</code></td><td>{{ending}}{{#hasMachines}} <span class="machines">({{machines}})</span>{{/hasMachines}}{{#hasReason}}: {{reason}}{{/hasReason}}</td></tr>
        {{/outcomes}}
        </table>
        {{#hasElsewhere}}<p class="answer"><strong>Only on other machines</strong> (neither needed nor wrong)</p>
        <table class="outcomes">
        {{#elsewhere}}<tr><td><code>{{printed.text}}</code></td><td>{{ending}} <span class="machines">({{machines}})</span></td></tr>
        {{/elsewhere}}
        </table>{{/hasElsewhere}}
        {{#races}}<p class="race">Data race: {{.}}</p>{{/races}}
        {{#hasNearMisses}}
        <p class="answer"><strong>{{nearMissHeading}}</strong></p>
        <ul class="near-misses">{{#nearMisses}}<li>{{> impossibility}}</li>{{/nearMisses}}</ul>
        {{/hasNearMisses}}
        {{#hasLive}}{{> live}}{{/hasLive}}
        {{/isTrace}}
        {{#isChoice}}
        <p class="answer"><strong>The options</strong></p>
        <ul class="option-key">{{#options}}<li>{{> runs}} — {{#isCorrect}}<strong>correct</strong>{{/isCorrect}}{{^isCorrect}}<strong>wrong</strong>{{#hasWhy}}: {{#why}}{{#isCode}}<code>{{text}}</code>{{/isCode}}{{^isCode}}{{text}}{{/isCode}}{{/why}}{{/hasWhy}}{{/isCorrect}}</li>{{/options}}</ul>
        {{/isChoice}}
        {{#isShort}}
        <p class="answer"><strong>Model answer</strong></p>
        {{#modelAnswer}}{{> block}}{{/modelAnswer}}
        {{#hasKeyIdeas}}<p class="answer"><strong>Key ideas</strong></p>
        <ul class="key-ideas">{{#keyIdeas}}<li>{{idea}}</li>{{/keyIdeas}}</ul>{{/hasKeyIdeas}}
        {{/isShort}}
        <div class="explanation"><p class="label">Why</p>{{#explanation}}{{> block}}{{/explanation}}</div>
        {{#hasSource}}<p class="source">Source: {{source}}</p>{{/hasSource}}
        </div>
        """

    /// One variant's answer key: what to accept, in its letters; the reasons are in the notes.
    static let keySection = """
        <section class="variant key" id="key-{{header.variantID}}">
        <header class="sheet-header">
        <h1 class="sheet-title" data-running="{{header.runningTitle}} — answer key" data-bookmark="{{header.keyBookmark}}" data-footer="{{header.keyFooter}}">{{header.sheetTitle}} — answer key</h1>
        <p class="variant-line">Variant {{header.variantID}} of {{header.variantCount}} · seed {{header.seed}}{{header.studentSuffix}}</p>
        <p class="totals">{{header.questionCount}} questions · {{header.totalPoints}} points · every answer computed by the model when this key was written · why each is right: the answer notes</p>
        </header>
        {{#questions}}
        <div class="question key-answer">
        <h2><span class="qnum">{{number}}.</span> {{title}} <span class="points">({{points}} {{pointsWord}})</span> <span class="qid">{{questionID}} · note {{noteNumber}}{{#noteIsBelow}} (below){{/noteIsBelow}}</span></h2>
        {{#isWrite}}<p class="answer"><strong>Every possible outcome ({{outcomeCount}}):</strong> {{#outcomes}}<span class="outcome-item"><code>{{printed.text}}</code> {{ending}}{{#hasMachines}} ({{machines}}){{/hasMachines}}</span> {{/outcomes}}</p>{{#hasElsewhere}}<p class="answer">Only on other machines, neither needed nor wrong: {{#elsewhere}}<span class="outcome-item"><code>{{printed.text}}</code> {{ending}} ({{machines}})</span> {{/elsewhere}}</p>{{/hasElsewhere}}{{/isWrite}}
        {{#isSelect}}<p class="answer"><strong>Tick: {{ticks}}</strong>{{#hasCannotHappen}} · cannot happen: {{cannotHappen}}{{/hasCannotHappen}}</p>{{/isSelect}}
        {{#isChoice}}<p class="answer"><strong>Correct: {{correctLetters}}</strong></p>{{/isChoice}}
        {{#isShort}}
        {{#hasKeyIdeas}}<p class="answer"><strong>Key ideas:</strong></p>
        <ul class="key-ideas">{{#keyIdeas}}<li>{{idea}}</li>{{/keyIdeas}}</ul>{{/hasKeyIdeas}}
        {{^hasKeyIdeas}}<p class="answer"><strong>Model answer: note {{noteNumber}}</strong></p>{{/hasKeyIdeas}}
        {{/isShort}}
        <p class="scoring"><strong>Scoring:</strong> {{rule}}</p>
        </div>
        {{/questions}}
        {{#hasOwnNotes}}
        <div class="own-notes">
        <p class="notes-heading">Notes on the questions only this variant asks</p>
        {{#ownNotes}}{{> note}}{{/ownNotes}}
        </div>
        {{/hasOwnNotes}}
        </section>
        """

    /// The answer notes: each question once, with every reason, for every variant.
    static let notesSection = """
        <section class="variant notes" id="notes">
        <header class="sheet-header">
        <h1 class="sheet-title" data-running="{{header.runningTitle}} — answer notes" data-bookmark="Answer notes" data-footer="Answer notes: not for students">{{header.sheetTitle}} — answer notes</h1>
        <p class="variant-line">{{header.scope}} · seed {{header.seed}}</p>
        <p class="totals">{{header.noteCount}} {{header.questionsWord}} · why each answer is right, once for every variant · each variant's key gives its order and letters and names these notes{{#header.hasOwnNotes}} · a question only one variant asks (a generated twin) has its note at the end of that variant's key{{/header.hasOwnNotes}}</p>
        {{#header.isEmpty}}<p>Every question is asked by one variant only: each key ends with the notes on its questions.</p>{{/header.isEmpty}}
        </header>
        {{#notes}}
        {{> note}}
        {{/notes}}
        </section>
        """
}
