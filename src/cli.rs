//! The native command line: lesson transcripts, scenario files, and export of the
//! in-memory disk to a real folder in Kafka's layout.

use std::path::PathBuf;

use crate::scenario::{self, Runner};

const USAGE: &str = "eos — the exactly-once playground on the command line

USAGE:
    eos lessons                         list the built-in lessons
    eos lesson NAME [OPTIONS]           print a lesson's transcript
    eos run FILE [OPTIONS]              run a scenario file (see docs/scenarios.md)

OPTIONS:
    --verbose        show each step's source line and the narrated events
    --export DIR     write the brokers' disks to DIR in Kafka's layout
                     (TOPIC-PARTITION/00000000000000000000.log, .index, …)
";

/// Runs the CLI; returns the process exit code.
pub fn main(args: &[String]) -> i32 {
    match run(args) {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => {
            eprintln!("eos: {e}");
            2
        }
    }
}

struct Options {
    verbose: bool,
    export: Option<PathBuf>,
}

fn options(rest: &[String]) -> Result<Options, String> {
    let mut o = Options {
        verbose: false,
        export: None,
    };
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--verbose" | "-v" => o.verbose = true,
            "--export" => {
                o.export = Some(PathBuf::from(it.next().ok_or("--export needs a folder")?))
            }
            other => return Err(format!("unknown option {other}\n\n{USAGE}")),
        }
    }
    Ok(o)
}

/// Everything the CLI prints, as one string (so tests can call it).
pub fn run(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => Ok(USAGE.to_string()),
        Some("lessons") => Ok(scenario::lessons()
            .iter()
            .map(|l| format!("{:<16} {}\n", l.name, l.title))
            .collect()),
        Some("lesson") => {
            let name = args.get(1).ok_or("which lesson? try `eos lessons`")?;
            let lesson = scenario::lesson(name)
                .ok_or_else(|| format!("no lesson named {name}; try `eos lessons`"))?;
            play(lesson.source, &options(&args[2..])?)
        }
        Some("run") => {
            let file = args.get(1).ok_or("which file?")?;
            let source = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            play(&source, &options(&args[2..])?).map_err(|e| format!("{file}: {e}"))
        }
        Some(other) => Err(format!("unknown command {other}\n\n{USAGE}")),
    }
}

fn play(source: &str, o: &Options) -> Result<String, String> {
    let parsed = scenario::parse(source).map_err(|e| e.to_string())?;
    let mut runner = Runner::new(parsed);
    let mut out = String::new();
    while let Some(step) = runner.current_step().cloned() {
        let seen = runner.world.events.len();
        let lines = runner.step()?;
        if o.verbose {
            if let Some(title) = &step.title {
                out.push_str(&format!("## {title}\n"));
            }
            for paragraph in &step.narration {
                out.push_str(&format!("   {paragraph}\n"));
            }
            out.push_str(&format!("$ {}\n", step.text));
        }
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
        if o.verbose {
            for e in &runner.world.events[seen..] {
                out.push_str(&format!("    · {}\n", e.narrate()));
            }
        }
    }
    if let Some(dir) = &o.export {
        let n = runner
            .world
            .export(dir)
            .map_err(|e| format!("export to {}: {e}", dir.display()))?;
        out.push_str(&format!("exported {n} files to {}\n", dir.display()));
    }
    Ok(out)
}
