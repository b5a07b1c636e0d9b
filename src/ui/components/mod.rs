//! The panels. Each gets read-only props (views of the world) and narrow callbacks, one
//! for each kind of intent (`ui::intents`); the reducer alone turns them into actions,
//! and none of the panels touches the engine.

pub mod broker_panel;
pub mod challenges;
pub mod cluster_panel;
pub mod course;
pub mod event_list;
pub mod field;
pub mod header_bytes;
pub mod lesson_panel;
pub mod log_table;
pub mod network_panel;
pub mod page_nav;
pub mod producer_panel;
pub mod prose;
pub mod question;
pub mod raw_panel;
pub mod replicas_view;
pub mod rules_panel;
pub mod share_box;
pub mod shortcuts;
pub mod time_travel;
pub mod timeline;
pub mod txn_admin;
pub mod txn_consumers;
pub mod txn_coordinator;
pub mod txn_log;
pub mod txn_producer;
pub mod verdict;
pub mod window_table;

/// A panel's help link: what the playground does not model about what the panel shows
/// (the limits page at its `section`, e.g. `storage`).
pub fn limits_help(section: &str) -> yew::Html {
    let href = format!("{}#{section}", crate::ui::site_href("limits.html"));
    yew::html! {
        <p class="small limits-help"><a {href}>{ crate::i18n::t(crate::i18n::Key::LimitsHelp) }</a></p>
    }
}
