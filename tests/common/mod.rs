//! Helpers shared by the property-test files.

/// The number of cases for a property test: `PROPTEST_CASES` when it is set (so a long
/// soak or a quick smoke run can be asked for), else this file's own default.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}
