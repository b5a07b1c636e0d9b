//! A lesson's question: a `fieldset[data-question]` with its prompt as the legend and
//! one radio button a choice. Once the learner chooses, `[data-feedback]` inside it says
//! whether that was the marked answer (`data-correct`) and what the choice teaches; it
//! is a polite live region, so a screen reader announces it. The answer itself is
//! checked against the engine by the lesson tests (`scenario::question`).

use yew::prelude::*;

use crate::i18n::{t, tf, Key};

/// A question as the player shows it, in the page's language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuestionInfo {
    /// Its source line: the question's id within the lesson.
    pub line: usize,
    pub prompt: String,
    /// (choice, what it teaches), in order.
    pub choices: Vec<(String, String)>,
    /// The marked answer's index.
    pub answer: usize,
    /// The learner's choice so far.
    pub chosen: Option<usize>,
}

impl QuestionInfo {
    /// A lesson's question in `lang`, with the learner's choice so far (`chosen`).
    pub fn of(
        q: &crate::scenario::question::Question,
        lang: crate::i18n::Lang,
        chosen: Option<usize>,
    ) -> Self {
        QuestionInfo {
            line: q.line,
            prompt: q.prompt.get(lang).to_string(),
            choices: q
                .choices
                .iter()
                .map(|c| {
                    (
                        c.text.get(lang).to_string(),
                        c.explanation.get(lang).to_string(),
                    )
                })
                .collect(),
            answer: q.answer(),
            chosen,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct QuestionProps {
    pub question: QuestionInfo,
    /// The learner chose (source line, choice).
    pub on_answer: Callback<(usize, usize)>,
}

#[function_component(Question)]
pub fn question(p: &QuestionProps) -> Html {
    let q = &p.question;
    let name = format!("q{}", q.line);
    let choices: Html = q
        .choices
        .iter()
        .enumerate()
        .map(|(i, (text, _))| {
            let id = format!("{name}-{i}");
            let onchange = {
                let (on_answer, line) = (p.on_answer.clone(), q.line);
                Callback::from(move |_: Event| on_answer.emit((line, i)))
            };
            html! {
                <div class="choice">
                    <input type="radio" id={id.clone()} name={name.clone()} value={i.to_string()} checked={q.chosen == Some(i)} {onchange} />
                    <label for={id}>{ super::prose::breakable(text) }</label>
                </div>
            }
        })
        .collect();
    let feedback = q
        .chosen
        .and_then(|c| q.choices.get(c).map(|choice| (c, choice)));
    html! {
        <fieldset class="question stack" data-question={q.line.to_string()}>
            <legend>{ q.prompt.clone() }</legend>
            { choices }
            <div class="feedback-slot" role="status" aria-live="polite">
                if let Some((c, (_, why))) = feedback {
                    <div class={if c == q.answer { "feedback right" } else { "feedback wrong" }} data-feedback="" data-correct={(c == q.answer).to_string()}>
                        <p><strong>{ if c == q.answer { t(Key::QuestionRight) } else { t(Key::QuestionWrong) } }</strong>{ " " }{ why.clone() }</p>
                        if c != q.answer {
                            if let Some((answer, _)) = q.choices.get(q.answer) {
                                <p class="small">{ tf(Key::QuestionAnswerIs, &[answer]) }</p>
                            }
                        }
                    </div>
                }
            </div>
        </fieldset>
    }
}
