/// HTML fragments for the exports (question text, answers, feedback: what an LMS or Anki shows
/// without our style sheet), and the file templates of Moodle XML, GIFT and Anki's text import.
enum ExportTemplates {
    static let fragments: [String: String] = [
        "exportCode": exportCode, "exportHost": exportHost, "exportQuestion": exportQuestion, "exportOutcome": exportOutcome,
        "exportTraceAnswer": exportTraceAnswer, "exportExplanation": exportExplanation,
        "exportChoiceAnswer": exportChoiceAnswer, "exportShortAnswer": exportShortAnswer,
        "exportRuns": exportRuns, "exportWhy": exportWhy, "exportImpossibility": exportImpossibility,
        "plainText": "{{text}}",
    ]

    /// Numbered code, plain enough for any HTML viewer, and left-aligned where the viewer centres
    /// text (Anki's Basic card does).
    static let exportCode = """
        <pre style="text-align: left">{{#code}}{{^isFirst}}\n{{/isFirst}}{{lineNumber}}  {{source}}{{/code}}</pre>
        """

    /// The prelude and the host's rules a trace puzzle's answer depends on.
    static let exportHost = """
        <p><small>{{hostRules}}</small></p><pre style="text-align: left">{{#hostPrelude}}{{^isFirst}}\n{{/isFirst}}{{source}}{{/hostPrelude}}</pre>
        """

    /// What is asked (a `SheetQuestionView`), with the choice options when `listChoices`.
    static let exportQuestion = """
        {{#hasHost}}{{> exportHost}}{{/hasHost}}{{#hasCode}}{{> exportCode}}{{/hasCode}}{{#prompt}}{{> block}}{{/prompt}}\
        {{#isSelect}}<p><em>Select every outcome that can happen.</em></p>{{/isSelect}}\
        {{#isWrite}}<p><em>What can it print? Give every possible outcome, each with how the run ends (finished, or deadlock where it stops).</em></p>{{/isWrite}}\
        {{#listChoices}}{{#choices}}<p><strong>{{letter}})</strong> {{> runs}}</p>{{/choices}}{{/listChoices}}
        """

    static let exportOutcome = """
        <code>{{printed.text}}</code> {{ending}}
        """

    static let exportImpossibility = """
        {{> impossibility}}
        """

    /// A trace puzzle's answer (a `KeyQuestionView`).
    static let exportTraceAnswer = """
        <p><strong>Every possible outcome ({{outcomeCount}}):</strong></p><ul>{{#outcomes}}<li><code>{{printed.text}}</code> {{ending}}{{#hasMachines}} ({{machines}}){{/hasMachines}}{{#hasReason}}: {{reason}}{{/hasReason}}</li>{{/outcomes}}</ul>\
        {{#hasElsewhere}}<p><strong>Only on other machines (neither needed nor wrong):</strong></p><ul>{{#elsewhere}}<li><code>{{printed.text}}</code> {{ending}} ({{machines}})</li>{{/elsewhere}}</ul>{{/hasElsewhere}}\
        {{#races}}<p><strong>Data race:</strong> {{.}}</p>{{/races}}
        """

    static let exportExplanation = """
        {{#explanation}}{{> block}}{{/explanation}}
        """

    static let exportChoiceAnswer = """
        <p><strong>Correct: {{correctLetters}}</strong></p>\
        <ul>{{#choiceKeys}}{{^isCorrect}}{{#hasWhy}}<li>{{letter}}) {{#why}}{{#isCode}}<code>{{text}}</code>{{/isCode}}{{^isCode}}{{text}}{{/isCode}}{{/why}}</li>{{/hasWhy}}{{/isCorrect}}{{/choiceKeys}}</ul>
        """

    static let exportShortAnswer = """
        {{#modelAnswer}}{{> block}}{{/modelAnswer}}\
        {{#hasKeyIdeas}}<p><strong>Key ideas</strong></p><ul>{{#keyIdeas}}<li>{{idea}}</li>{{/keyIdeas}}</ul>{{/hasKeyIdeas}}
        """

    static let exportRuns = """
        {{> runs}}
        """

    static let exportWhy = """
        {{#why}}{{#isCode}}<code>{{text}}</code>{{/isCode}}{{^isCode}}{{text}}{{/isCode}}{{/why}}
        """

    /// Moodle XML, as Moodle's `qformat_xml` reads it (question/format/xml/format.php:
    /// `import_multichoice`, `import_essay`; docs.moodle.org/en/Moodle_XML_format). Every value
    /// is XML-escaped; HTML goes in as escaped text of a `format="html"` element.
    static let moodle = """
        <?xml version="1.0" encoding="UTF-8"?>
        <quiz>
        <question type="category">
          <category><text>$course$/top/gcdquiz</text></category>
        </question>
        {{#questions}}
        <question type="{{type}}">
          <name><text>{{title}}</text></name>
          <questiontext format="html"><text>{{questionHTML}}</text></questiontext>
          <generalfeedback format="html"><text>{{generalFeedbackHTML}}</text></generalfeedback>
          <defaultgrade>{{defaultGrade}}</defaultgrade>
          <penalty>0.3333333</penalty>
          <hidden>0</hidden>
          <idnumber>{{id}}</idnumber>
        {{#isMultichoice}}
          <single>{{single}}</single>
          <shuffleanswers>{{shuffleAnswers}}</shuffleanswers>
          <answernumbering>abc</answernumbering>
          <showstandardinstruction>0</showstandardinstruction>
          <correctfeedback format="html"><text></text></correctfeedback>
          <partiallycorrectfeedback format="html"><text></text></partiallycorrectfeedback>
          <incorrectfeedback format="html"><text></text></incorrectfeedback>
          <shownumcorrect/>
        {{#answers}}
          <answer fraction="{{fraction}}" format="html">
            <text>{{html}}</text>
            <feedback format="html"><text>{{feedbackHTML}}</text></feedback>
          </answer>
        {{/answers}}
        {{/isMultichoice}}
        {{#isEssay}}
          <responseformat>editor</responseformat>
          <responserequired>1</responserequired>
          <responsefieldlines>10</responsefieldlines>
          <attachments>0</attachments>
          <attachmentsrequired>0</attachmentsrequired>
          <graderinfo format="html"><text>{{graderInfoHTML}}</text></graderinfo>
          <responsetemplate format="html"><text></text></responsetemplate>
        {{/isEssay}}
          <tags>
        {{#tags}}
            <tag><text>{{.}}</text></tag>
        {{/tags}}
          </tags>
        </question>
        {{/questions}}
        </quiz>

        """

    /// GIFT, as Moodle's `qformat_gift` reads it (question/format/gift/format.php): one question
    /// per blank-line-separated paragraph, `::name::`, `[html]` text, `{…}` answers with `=` for a
    /// single right answer, `~%w%` weights, `#` feedback, `####` general feedback, `{}` an essay.
    /// Every value is escaped by the GIFT content type (backslash, `~ = # { } :` and newlines).
    static let gift = """
        {{% CONTENT_TYPE: GIFT}}
        // gcdquiz questions for Moodle's GIFT import; every answer computed by the model.
        $CATEGORY: gcdquiz

        {{#questions}}
        // {{id}}
        ::{{title}}::[html]{{questionHTML}}{
        {{#answers}}
        \t{{#isSingleCorrect}}={{/isSingleCorrect}}{{^isSingleCorrect}}~{{#hasWeight}}%{{{fraction}}}%{{/hasWeight}}{{/isSingleCorrect}}{{html}}{{#hasFeedback}}#{{feedbackHTML}}{{/hasFeedback}}
        {{/answers}}
        \t####{{generalFeedbackHTML}}
        }

        {{/questions}}
        """

    /// Anki's text import with file headers (docs.ankiweb.net/importing/text-files.html, "File
    /// Headers"; rslib/src/import_export/text/csv/metadata.rs): tab-separated, HTML fields, a
    /// GUID column so that importing again updates the notes instead of adding copies.
    static let anki = """
        {{% CONTENT_TYPE: ANKI}}
        #separator:tab
        #html:true
        #notetype:Basic
        #deck:gcdquiz
        #columns:GUID\tFront\tBack\tTags
        #guid column:1
        #tags column:4
        {{#notes}}
        {{guid}}\t{{front}}\t{{back}}\t{{tags}}
        {{/notes}}

        """

    /// QTI 1.2 ASI (ims_qtiasiv1p2): `questestinterop` > `assessment` > `section` > `item`s, each
    /// with its metadata, presentation, response processing and feedback in the order the
    /// schema's content model gives them. HTML goes in as escaped text of a `text/html` mattext.
    static let qti = """
        <?xml version="1.0" encoding="UTF-8"?>
        <questestinterop xmlns="http://www.imsglobal.org/xsd/ims_qtiasiv1p2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.imsglobal.org/xsd/ims_qtiasiv1p2 http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd">
          <assessment ident="gcdquiz" title="gcdquiz">
            <section ident="root_section">
        {{#items}}
              <item ident="{{ident}}" title="{{title}}">
                <itemmetadata>
                  <qtimetadata>
                    <qtimetadatafield><fieldlabel>question_type</fieldlabel><fieldentry>{{questionType}}</fieldentry></qtimetadatafield>
                    <qtimetadatafield><fieldlabel>points_possible</fieldlabel><fieldentry>{{points}}</fieldentry></qtimetadatafield>
                  </qtimetadata>
                </itemmetadata>
                <presentation>
                  <material><mattext texttype="text/html">{{questionHTML}}</mattext></material>
        {{#isChoice}}
                  <response_lid ident="response1" rcardinality="{{cardinality}}">
                    <render_choice>
        {{#answers}}
                      <response_label ident="{{ident}}"><material><mattext texttype="text/html">{{html}}</mattext></material></response_label>
        {{/answers}}
                    </render_choice>
                  </response_lid>
        {{/isChoice}}
        {{#isEssay}}
                  <response_str ident="response1" rcardinality="Single"><render_fib><response_label ident="answer1" rshuffle="No"/></render_fib></response_str>
        {{/isEssay}}
                </presentation>
                <resprocessing>
                  <outcomes><decvar varname="SCORE" vartype="Decimal" minvalue="0" maxvalue="100"/></outcomes>
                  <respcondition continue="Yes"><conditionvar><other/></conditionvar><displayfeedback feedbacktype="Response" linkrefid="general_fb"/></respcondition>
        {{#isChoice}}
        {{#answers}}
                  <respcondition continue="Yes"><conditionvar><varequal respident="response1">{{ident}}</varequal></conditionvar>{{#hasScore}}<setvar varname="SCORE" action="{{action}}">{{setvar}}</setvar>{{/hasScore}}{{#hasFeedback}}<displayfeedback feedbacktype="Response" linkrefid="{{ident}}_fb"/>{{/hasFeedback}}</respcondition>
        {{/answers}}
        {{/isChoice}}
                </resprocessing>
                <itemfeedback ident="general_fb"><flow_mat><material><mattext texttype="text/html">{{generalFeedbackHTML}}</mattext></material></flow_mat></itemfeedback>
        {{#answers}}
        {{#hasFeedback}}
                <itemfeedback ident="{{ident}}_fb"><flow_mat><material><mattext texttype="text/html">{{feedbackHTML}}</mattext></material></flow_mat></itemfeedback>
        {{/hasFeedback}}
        {{/answers}}
              </item>
        {{/items}}
            </section>
          </assessment>
        </questestinterop>

        """

    /// The IMS content package's manifest: one resource, the QTI 1.2 assessment.
    static let qtiManifest = """
        <?xml version="1.0" encoding="UTF-8"?>
        <manifest identifier="gcdquiz-export" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1">
          <metadata><schema>IMS Content</schema><schemaversion>1.1.3</schemaversion></metadata>
          <organizations/>
          <resources>
            <resource identifier="gcdquiz-assessment" type="imsqti_xmlv1p2" href="{{file}}"><file href="{{file}}"/></resource>
          </resources>
        </manifest>

        """
}
