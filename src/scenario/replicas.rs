//! `print replicas TOPIC-P`: the controller's record and every replica's offsets.

use crate::sim::replication::ReplicasView;

/// One header line (leader, leader epoch, ISR, the ELR when the cluster keeps one,
/// partition epoch, and `leader-recovery-state=RECOVERING` after an unclean election
/// until the leader reports it recovered; `adding=`/`removing=` while a reassignment
/// moves it), then one line per replica: role, LEO, HW,
/// LSO, its leader-epoch cache, and what sets it apart (out of the ISR, stopped, a
/// log that differs from the leader's).
pub fn replicas_lines(v: &ReplicasView, lang: crate::i18n::Lang) -> Vec<String> {
    let list = |l: &[i32]| {
        let items: Vec<String> = l.iter().map(|b| b.to_string()).collect();
        format!("[{}]", items.join(", "))
    };
    let leader = if v.leader < 0 {
        "none".to_string()
    } else {
        v.leader.to_string()
    };
    let elr = v
        .elr
        .as_ref()
        .map_or_else(String::new, |e| format!(" elr={}", list(e)));
    let elr = if v.last_known_elr.is_empty() {
        elr
    } else {
        format!("{elr} last-known-elr={}", list(&v.last_known_elr))
    };
    let recovery = match v.leader_recovery_state {
        crate::protocol::LeaderRecoveryState::Recovered => "",
        crate::protocol::LeaderRecoveryState::Recovering => " leader-recovery-state=RECOVERING",
    };
    #[cfg(feature = "topic-admin")]
    let recovery = {
        let mut moving = String::new();
        if !v.adding.is_empty() {
            moving.push_str(&format!(" adding={}", list(&v.adding)));
        }
        if !v.removing.is_empty() {
            moving.push_str(&format!(" removing={}", list(&v.removing)));
        }
        format!("{recovery}{moving}")
    };
    let mut lines = vec![format!(
        "{} leader={leader} epoch={} isr={}{elr} partition-epoch={}{recovery}",
        v.tp,
        v.leader_epoch,
        list(&v.isr),
        v.partition_epoch
    )];
    for r in &v.replicas {
        let epochs: Vec<String> = r.epochs.iter().map(|(e, o)| format!("{e}@{o}")).collect();
        let notes = crate::i18n::transcript::replica_notes(
            !r.in_isr,
            r.in_elr,
            !r.online,
            !r.matches_leader,
            lang,
        );
        let offsets = if r.online {
            format!(
                "LEO {:>3} HW {:>3} LSO {:>3}",
                r.log_end_offset, r.high_watermark, r.last_stable_offset
            )
        } else {
            format!(
                "LEO {:>3} {}",
                r.log_end_offset,
                crate::i18n::transcript::replica_on_disk(lang)
            )
        };
        lines.push(format!(
            "  broker {} {:<8} {offsets} epochs [{}]{}",
            r.broker,
            if r.leader { "leader" } else { "follower" },
            epochs.join(" "),
            if notes.is_empty() {
                String::new()
            } else {
                format!(" · {notes}")
            }
        ));
    }
    lines
}
