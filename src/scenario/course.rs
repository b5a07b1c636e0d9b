//! The course: every lesson in the order a learner should take them, grouped in modules
//! (idempotence → transactions → versions and faults → replication and failover →
//! Pulsar → break it). The page's learning path, `eos lessons` and the LMS packages all
//! read this one list. Names only: the main page's wasm has neither the lesson texts nor
//! the Pulsar lessons, yet lists them all.

/// Which page plays a lesson: the main site, or the Pulsar site (`pulsar/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    Kafka,
    Pulsar,
}

/// A lesson's place in the course.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourseLesson {
    pub name: &'static str,
    /// About how long it takes to read and play, in minutes (checked against the
    /// lesson's length by the lesson tests).
    pub minutes: u32,
    /// The lessons it builds on (earlier in the course).
    pub builds_on: &'static [&'static str],
    pub site: Site,
}

/// A module of the course. Its title is the catalog's `course.module.KEY`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Module {
    pub key: &'static str,
    pub lessons: &'static [CourseLesson],
}

const fn lesson(
    name: &'static str,
    minutes: u32,
    builds_on: &'static [&'static str],
    site: Site,
) -> CourseLesson {
    CourseLesson {
        name,
        minutes,
        builds_on,
        site,
    }
}

const MODULES: &[Module] = &[
    Module {
        key: "idempotence",
        lessons: &[
            lesson("idempotence", 9, &[], Site::Kafka),
            lesson("dedup-window", 12, &["idempotence"], Site::Kafka),
        ],
    },
    Module {
        key: "transactions",
        lessons: &[
            lesson("transactions", 10, &["idempotence"], Site::Kafka),
            lesson("fencing", 7, &["transactions"], Site::Kafka),
            lesson(
                "consume-transform-produce",
                6,
                &["transactions"],
                Site::Kafka,
            ),
        ],
    },
    Module {
        key: "versions",
        lessons: &[
            lesson("hanging-transaction", 11, &["transactions"], Site::Kafka),
            lesson("late-endtxn", 7, &["hanging-transaction"], Site::Kafka),
        ],
    },
    Module {
        key: "replication",
        lessons: &[
            lesson("replication", 10, &["idempotence"], Site::Kafka),
            lesson("failover", 9, &["replication", "transactions"], Site::Kafka),
            lesson("coordinator-failover", 8, &["failover"], Site::Kafka),
            lesson("acks-1-loss", 8, &["replication"], Site::Kafka),
        ],
    },
    Module {
        key: "pulsar",
        lessons: &[
            lesson("pulsar-transactions", 8, &["transactions"], Site::Pulsar),
            lesson(
                "pulsar-abort-and-conflict",
                7,
                &["pulsar-transactions"],
                Site::Pulsar,
            ),
            lesson("pulsar-tc-crash", 6, &["pulsar-transactions"], Site::Pulsar),
            lesson(
                "kafka-vs-pulsar",
                8,
                &["pulsar-transactions", "consume-transform-produce"],
                Site::Pulsar,
            ),
        ],
    },
    Module {
        key: "break",
        lessons: &[lesson("break-it", 7, &["dedup-window"], Site::Kafka)],
    },
];

/// The course's modules, in order.
pub fn modules() -> &'static [Module] {
    MODULES
}

/// Every lesson of the course, in order.
pub fn course_lessons() -> impl Iterator<Item = &'static CourseLesson> {
    MODULES.iter().flat_map(|m| m.lessons)
}

/// A lesson's place in the course.
pub fn course_lesson(name: &str) -> Option<&'static CourseLesson> {
    course_lessons().find(|l| l.name == name)
}

/// The lesson after `name` in the course, if any.
pub fn next_lesson(name: &str) -> Option<&'static CourseLesson> {
    course_lessons().skip_while(|l| l.name != name).nth(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_is_in_the_course_once_and_builds_on_earlier_ones() {
        let names: Vec<&str> = course_lessons().map(|l| l.name).collect();
        for l in crate::scenario::all_lessons() {
            assert_eq!(
                names.iter().filter(|n| **n == l.name).count(),
                1,
                "{} in the course once",
                l.name
            );
        }
        assert_eq!(names.len(), crate::scenario::all_lessons().count());
        for (i, l) in course_lessons().enumerate() {
            for b in l.builds_on {
                let at = names.iter().position(|n| n == b).expect("a course lesson");
                assert!(at < i, "{} builds on {b}, which comes later", l.name);
            }
        }
        assert_eq!(
            next_lesson("idempotence").map(|l| l.name),
            Some("dedup-window")
        );
        assert_eq!(next_lesson("break-it"), None);
    }
}
