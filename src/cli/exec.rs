//! `skillpkg exec <task>`

use std::io::Write;
use std::time::Duration;

use crate::agent::run::{Answer, ApprovalRequest, Budgets, Ending};
use crate::agent::tools::tool_policy::Policy;
use crate::agent::{Connection, ExecOptions, Session, choose_model, dry_run, exec, open_model};
use crate::credentials::Credentials;
use crate::sandbox::Sandbox;

use super::{Context, ExitStatus};
use crate::hint::Hinted;

/// Run an agent over the resolved skills.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The task, or `/skill-name args` to start from that skill. Without
    /// one, on a terminal, a REPL.
    task: Option<String>,
    /// The model: anthropic:<model>, openai:<model> or scripted:<file>.
    #[arg(long, short = 'm')]
    model: Option<String>,
    /// Another server speaking the model's API (Ollama, vLLM, a proxy, a mock).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Wait for each whole answer instead of streaming it.
    #[arg(long)]
    no_stream: bool,
    /// Print the system prompt, the tool schemas and a token estimate; call no model.
    #[arg(long)]
    dry_run: bool,
    /// Print the result as JSON on stdout.
    #[arg(long)]
    json: bool,
    /// Approve every tool call that is not denied.
    #[arg(long, short = 'y')]
    yes: bool,
    /// Approve this tool (`shell`, `write_file`, `run_script`, `Bash(git:*)`, …).
    #[arg(long, value_name = "TOOL")]
    allow_tool: Vec<String>,
    /// Refuse this tool, whatever else allows it.
    #[arg(long, value_name = "TOOL")]
    deny_tool: Vec<String>,
    /// Make an active skill's allowed-tools the only tools available.
    #[arg(long)]
    restrict_tools: bool,
    /// Most model turns.
    #[arg(long, default_value_t = Budgets::default().max_turns)]
    max_turns: u32,
    /// Most tool calls.
    #[arg(long, default_value_t = Budgets::default().max_tool_calls)]
    max_tool_calls: u32,
    /// Most tokens, input and output together.
    #[arg(long, default_value_t = Budgets::default().max_tokens)]
    max_tokens: u64,
    /// Seconds a script or shell command may run.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
    /// The catalog's budget in characters (default: 2% of the model's context).
    #[arg(long)]
    catalog_budget: Option<usize>,
    #[command(flatten)]
    sandbox: super::sandbox::SandboxArgs,
    #[command(flatten)]
    mcp: super::mcp_skills::McpSkillsArgs,
}

pub(super) fn run(args: Args, context: &mut Context) -> anyhow::Result<ExitStatus> {
    let cwd = context.cwd.clone();
    let loaded = super::load_skills(context)?;
    let mut skills: Vec<&crate::skill::Skill> = loaded.set.active().map(|e| &*e.skill).collect();
    let interactive = super::ask::on_a_terminal();
    let dirs = context.dirs()?.clone();
    let settings = project_settings(context, &cwd, interactive && !args.dry_run)?;
    let manifest = &settings.manifest;
    let mut survey = crate::ops::consent::grants::survey(&loaded, &settings, &dirs)?;
    let local = skills
        .iter()
        .map(|s| (s.meta.name.clone(), s.dir.clone()))
        .collect();
    let served_skills = super::mcp_skills::take(
        context,
        &args.mcp.servers,
        &manifest.agent.mcp_skills,
        &args.sandbox.passed_env(&manifest.agent),
        &local,
    )?;
    survey.extend(super::mcp_skills::survey(&served_skills, &dirs)?);
    skills.extend(served_skills.iter().map(|s| &s.skill));
    let state_dir = settings.dir.join(".skillpkg");
    let protected: Vec<std::path::PathBuf> = loaded.roots.iter().map(|r| r.dir.clone()).collect();
    let printer = context.printer;
    let warn = move |message: &str| printer.warn(message);
    let mut options = ExecOptions {
        task: args.task.as_deref().unwrap_or(""),
        workspace: &cwd,
        state_dir: &state_dir,
        policy: policy(&args, manifest),
        budgets: Budgets {
            max_turns: args.max_turns,
            max_tool_calls: args.max_tool_calls,
            max_tokens: args.max_tokens,
        },
        catalog_budget: args.catalog_budget,
        context_window: manifest.agent.context_window,
        timeout: Duration::from_secs(args.timeout),
        shadowed: shadowed_names(&loaded),
        grants: crate::ops::consent::grants::approved(&survey),
        pins: pins_of(&survey),
        served: super::mcp_skills::served(&served_skills, &survey),
        skill_roots: protected.clone(),
        sandbox: Sandbox::off(),
        warn: &warn,
    };
    if args.dry_run {
        let status = print_dry_run(context, &args, &skills, &options, manifest);
        // Freeing every skill one by one only delays the exit.
        std::mem::forget(options);
        std::mem::forget(skills);
        std::mem::forget(loaded);
        return status;
    }
    options.sandbox = super::sandbox::sandbox(
        &args.sandbox,
        &manifest.agent,
        &settings.dir.join(crate::project::MANIFEST_FILE),
        context,
        Some(&cwd),
        protected,
    )?;
    let mut model = chosen_model(&args, manifest, context, &cwd)?;
    let mut approve = |request: &ApprovalRequest| -> Option<Answer> {
        if !interactive {
            return None;
        }
        let answer = ask_about_call(request)?;
        if answer == Answer::ApproveSkill
            && let Some((name, _)) = request.skill
        {
            record_approval(&survey, name, &dirs);
        }
        Some(answer)
    };
    let streaming = !args.json;
    let mut transcript = super::printer::Transcript::default();
    let mut on_text = |text: &str| {
        if streaming {
            print!("{}", transcript.render(text));
            let _ = std::io::stdout().flush();
        }
    };
    crate::agent::interrupt::catch();
    let Some(task) = args.task.as_deref() else {
        if !interactive {
            anyhow::bail!(
                Hinted::new("no task given, and no terminal for the REPL")
                    .hint("skillpkg exec \"<task>\"")
            );
        }
        drop(loaded);
        let served: Vec<&crate::skill::Skill> = served_skills.iter().map(|s| &s.skill).collect();
        return repl(
            context,
            model.as_mut(),
            &options,
            &served,
            &mut on_text,
            &mut approve,
        );
    };
    let finished = exec(model.as_mut(), &skills, options, &mut on_text, &mut approve)?;
    if streaming {
        print!("{}", transcript.finish());
    }
    report_run(context, &args, &finished, task, &survey)
}

/// The tool policy of this run: the flags, and the project's `[agent]
/// tools` (trusted, or left out by [`project_settings`]).
fn policy(args: &Args, manifest: &crate::manifest::Manifest) -> Policy {
    Policy {
        yes: args.yes,
        allow: args.allow_tool.clone(),
        deny: args.deny_tool.clone(),
        restrict: args.restrict_tools || manifest.agent.tools.as_deref() == Some("restrict"),
    }
}

/// The names of the skills another root's skill of the same name shadows.
fn shadowed_names(loaded: &crate::ops::skills::LoadedSkills) -> Vec<String> {
    loaded
        .set
        .all()
        .iter()
        .filter(|e| e.shadowed_by.is_some())
        .map(|e| e.skill.meta.name.clone())
        .collect()
}

/// The model of this run: `--model`, else `SKILLPKG_MODEL`, the project's
/// `[agent] model` or the API key at hand ([`choose_model`]), opened.
fn chosen_model(
    args: &Args,
    manifest: &crate::manifest::Manifest,
    context: &mut Context,
    cwd: &std::path::Path,
) -> anyhow::Result<Box<dyn crate::agent::model::Model>> {
    let credentials = Credentials::new(Some(&context.dirs()?.config));
    let spec = choose_model(
        args.model.as_deref(),
        manifest.agent.model.as_deref(),
        &credentials,
    )?;
    let connection = Connection {
        base_url: args.base_url.as_deref(),
        stream: !args.no_stream,
        credentials,
    };
    open_model(&spec, cwd, &connection)
}

/// Records `a` at a call's question: the asking skill's grants approved
/// for good, said on stderr (a failure to record is said too; the call
/// itself goes ahead either way).
fn record_approval(
    survey: &[crate::ops::consent::grants::SkillGrants],
    name: &str,
    dirs: &crate::dirs::Dirs,
) {
    match crate::ops::consent::grants::set(survey, name, true, dirs) {
        Ok(change) => eprintln!(
            "{}",
            super::printer::one_line_safe(&format!(
                "approved the grants of {name} ({})",
                change.recorded_in.display()
            ))
        ),
        Err(e) => eprintln!("could not record the approval: {e:#}"),
    }
}

/// After a run with a task: its JSON or the end of its answer, what it
/// changed in the workspace, where its audit log is, and why it ended.
fn report_run(
    context: &Context,
    args: &Args,
    finished: &crate::agent::Finished,
    task: &str,
    survey: &[crate::ops::consent::grants::SkillGrants],
) -> anyhow::Result<ExitStatus> {
    if args.json {
        context.printer.json(finished)?;
    } else if !finished.outcome.answer.is_empty() && !finished.outcome.answer.ends_with('\n') {
        println!();
    }
    if !args.json
        && let Some(changes) = &finished.outcome.changes
    {
        report_changes(context, changes);
    }
    context
        .printer
        .verbose(format_args!("audit log: {}", finished.audit.display()));
    report_ending(
        context,
        &finished.outcome.ending,
        &finished.audit,
        task,
        survey,
    )
}

/// Files listed one by one after a run, at most; the audit log has all.
const MAX_LISTED_CHANGES: usize = 50;

/// Lists what the run changed in the workspace, one status line a file,
/// marking configuration that starts commands.
fn report_changes(context: &Context, changes: &crate::sandbox::changes::Changes) {
    use crate::sandbox::changes::Change;
    for (path, change) in changes.files.iter().take(MAX_LISTED_CHANGES) {
        let verb = match change {
            Change::Created => "Created",
            Change::Changed => "Changed",
            Change::Deleted => "Deleted",
        };
        let note = match crate::sandbox::protected::starts_commands(path) {
            true => " (configuration that starts commands: review it before anything runs it)",
            false => "",
        };
        context
            .printer
            .status(verb, format_args!("{}{note}", path.display()));
    }
    if changes.files.len() > MAX_LISTED_CHANGES {
        context.printer.status(
            "Changed",
            format_args!(
                "{} more files (the audit log lists them all)",
                changes.files.len() - MAX_LISTED_CHANGES
            ),
        );
    }
    if changes.incomplete {
        context.printer.warn(format_args!(
            "the workspace holds more than {} files; changes past them are not listed",
            crate::sandbox::changes::MAX_FILES
        ));
    }
}

/// The tree each installed skill's approved grants were approved for:
/// the tree its lock entry records.
fn pins_of(
    survey: &[crate::ops::consent::grants::SkillGrants],
) -> std::collections::BTreeMap<String, crate::agent::pins::Pin> {
    survey
        .iter()
        .filter(|g| !g.approved.is_empty())
        .filter_map(|g| match (&g.keeper, &g.pinned_tree) {
            (crate::ops::consent::grants::Keeper::Lock { lock, name }, Some(tree)) => Some((
                g.name.clone(),
                crate::agent::pins::Pin {
                    dir: g.dir.clone(),
                    tree: tree.clone(),
                    recorded_in: format!("{name} in {}", lock.display()),
                },
            )),
            _ => None,
        })
        .collect()
}

/// How to let `skill`'s allowed-tools pre-approve what it asked for.
fn grant_hint(skill: &str, survey: &[crate::ops::consent::grants::SkillGrants]) -> String {
    let untrusted_lock = survey.iter().any(|g| {
        g.name == skill
            && matches!(g.keeper, crate::ops::consent::grants::Keeper::Lock { .. })
            && g.note.as_deref().is_some_and(|n| n.contains("not trusted"))
    });
    // Every pattern approved, and yet it asked: the run withdrew them.
    let withdrawn = survey.iter().any(|g| {
        g.name == skill && g.pinned_tree.is_some() && g.note.is_none() && g.unapproved().is_empty()
    });
    let served = survey.iter().find_map(|g| match &g.keeper {
        crate::ops::consent::grants::Keeper::Mcp { origin, .. } if g.name == skill => Some(origin),
        _ => None,
    });
    if let Some(origin) = served {
        return format!(
            "the skill '{skill}' is served by {origin} and not approved as served now, so its scripts do not run and its allowed-tools grant nothing: `skillpkg grants approve {} --mcp-skills {}` approves it",
            crate::hint::shell_quote(skill),
            crate::hint::shell_quote(origin.strip_prefix("mcp:").unwrap_or(origin))
        );
    }
    if withdrawn {
        return format!(
            "the skill '{skill}' changed since its grants were approved, so they do not count: `skillpkg verify` shows what changed, `skillpkg install --force` puts back what skills.lock records"
        );
    }
    match untrusted_lock {
        true => format!(
            "the skill '{skill}' asks for it in its allowed-tools; the grants skills.lock records for it count once you trust this project: `skillpkg trust --project`"
        ),
        false => format!(
            "the skill '{skill}' asks for it in its allowed-tools, which you have not approved: `skillpkg grants list` shows them, `skillpkg grants approve {}` approves them",
            crate::hint::shell_quote(skill)
        ),
    }
}

/// `--dry-run`: the system prompt, the tools and the estimate a run would
/// send, with the catalog budget of the model named or configured.
fn print_dry_run(
    context: &mut Context,
    args: &Args,
    skills: &[&crate::skill::Skill],
    options: &ExecOptions,
    manifest: &crate::manifest::Manifest,
) -> anyhow::Result<ExitStatus> {
    let credentials = Credentials::new(Some(&context.dirs()?.config));
    let (spec, window) = crate::agent::model::select::planned_model(
        args.model.as_deref(),
        manifest.agent.model.as_deref(),
        &credentials,
        &context.cwd,
    );
    let provider = spec
        .as_deref()
        .and_then(|s| s.split_once(':'))
        .map(|(p, _)| p);
    let plan = dry_run(skills, options, window, provider)?;
    if args.json {
        context.printer.json(&plan)?;
        return Ok(ExitStatus::Success);
    }
    context.printer.data(&plan.system);
    context.printer.data("");
    context
        .printer
        .data(serde_json::to_string_pretty(&plan.tools)?);
    context.printer.data("");
    context.printer.data(format_args!(
        "about {} tokens ({} listed, {} left out, in a catalog budget of {} characters)",
        plan.estimated_tokens,
        super::printer::count(plan.catalog.entries.len(), "skill"),
        plan.catalog.omitted.len(),
        plan.catalog.budget
    ));
    Ok(ExitStatus::Success)
}

/// The project's settings for this run. An untrusted project's are left
/// out with a warning, or, on a terminal, the user is asked whether to
/// trust it.
fn project_settings(
    context: &mut Context,
    cwd: &std::path::Path,
    may_ask: bool,
) -> anyhow::Result<crate::ops::skills::ProjectSettings> {
    let dirs = context.dirs()?.clone();
    let settings = crate::ops::skills::project_settings(cwd, &dirs)?;
    let Some(warning) = &settings.warning else {
        return Ok(settings);
    };
    if may_ask {
        let question = crate::ops::consent::project::question(&settings.dir)?;
        if super::ask::confirm(&question.lines(), "Trust this project on this machine?") {
            question.trust(&dirs)?;
            return crate::ops::skills::project_settings(cwd, &dirs);
        }
    }
    context.printer.warn(warning);
    Ok(settings)
}

/// Asks on the terminal about one call: yes, no, or (when a skill's
/// unapproved grants ask for it) approve that skill's grants. One line
/// per item, each escaped; the skill's patterns strongest last, right
/// before the question.
fn ask_about_call(request: &ApprovalRequest) -> Option<Answer> {
    let shown = crate::agent::tools::approval::show(request.tool, request.input);
    let mut lines: Vec<String> = std::iter::once(shown.heading)
        .chain(shown.items.iter().map(|item| format!("  {item}")))
        .collect();
    let choices = match request.skill {
        Some((name, _)) if request.origin.is_some() && request.tool == "run_script" => {
            lines.push(format!(
                "(skill '{name}' is served by {}: its scripts run here only once you approve them; 'a' approves the skill as served now, its allowed-tools included)",
                request.origin.unwrap_or_default()
            ));
            "[y/N/a]"
        }
        Some((name, unapproved)) => {
            let from = request
                .origin
                .map(|origin| format!(", served by {origin},"))
                .unwrap_or_default();
            lines.push(format!(
                "(skill '{name}'{from} asks for this in its allowed-tools; 'a' approves its grants for good:)"
            ));
            // Tools that only read run without approval: not listed.
            let needing: Vec<String> = unapproved
                .iter()
                .filter(|p| crate::skill::tool_pattern::needs_approval(p))
                .cloned()
                .collect();
            lines.extend(super::grants::pattern_lines(&needing));
            "[y/N/a]"
        }
        None => "[y/N]",
    };
    let mut answers = vec![super::ask::Choice {
        words: &["y", "yes"],
        value: Answer::Yes,
    }];
    if request.skill.is_some() {
        answers.push(super::ask::Choice {
            words: &["a"],
            value: Answer::ApproveSkill,
        });
    }
    Some(super::ask::ask(
        &lines,
        &format!("Allow it? {choices}"),
        &answers,
        Answer::No,
    ))
}

/// Says why a run ended, when it did not end with an answer.
fn report_ending(
    context: &Context,
    ending: &Ending,
    audit: &std::path::Path,
    task: &str,
    survey: &[crate::ops::consent::grants::SkillGrants],
) -> anyhow::Result<ExitStatus> {
    match ending {
        Ending::Answered => Ok(ExitStatus::Success),
        Ending::Budget {
            budget,
            limit,
            flag,
        } => {
            context.printer.error(&anyhow::anyhow!(
                Hinted::new(format!("the run stopped at its budget of {limit} {budget}")).hint(
                    format!("raise it with {flag}; the audit log is {}", audit.display())
                )
            ));
            Ok(ExitStatus::Failure)
        }
        Ending::NeedsApproval {
            tool,
            skill,
            allow,
            not_exact,
        } => {
            let mut error = Hinted::new(format!(
                "the model called {tool}, which needs approval, and there is no terminal to ask"
            ));
            if let Some(skill) = skill {
                error = error.hint(grant_hint(skill, survey));
            }
            let rerun = match not_exact {
                None => {
                    let flags: Vec<&str> = allow
                        .iter()
                        .flat_map(|pattern| ["--allow-tool", pattern.as_str()])
                        .collect();
                    format!("re-run with approval: {}", rerun_with(&flags, task))
                }
                Some(why) => format!(
                    "no grant short of every {tool} call covers it ({why}); to allow every {tool} call: {}",
                    rerun_with(&["--allow-tool", tool], task)
                ),
            };
            context
                .printer
                .error(&anyhow::anyhow!(error.hint(rerun).hint(format!(
                    "or approve every tool: {}",
                    rerun_with(&["--yes"], task)
                ))));
            Ok(ExitStatus::Failure)
        }
        Ending::Refused { tool } => {
            context
                .printer
                .error(&anyhow::anyhow!("the run stopped: you refused {tool}"));
            Ok(ExitStatus::Failure)
        }
        Ending::Interrupted => {
            context.printer.error(&anyhow::anyhow!(
                "interrupted; the audit log is {}",
                audit.display()
            ));
            Ok(ExitStatus::Failure)
        }
    }
}

/// The command that ran, as a user would type it again, with `extra`
/// flags after `exec`: every flag it had is kept, and each word quoted.
/// Outside a run of `exec` (a REPL input), `skillpkg exec <extra> <task>`.
fn rerun_with(extra: &[&str], task: &str) -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<String> = match args.iter().position(|a| a == "exec") {
        Some(at) if args.iter().any(|a| a == task) => args[..=at]
            .iter()
            .cloned()
            .chain(extra.iter().map(|e| e.to_string()))
            .chain(args[at + 1..].iter().cloned())
            .collect(),
        _ => std::iter::once("exec".to_string())
            .chain(extra.iter().map(|e| e.to_string()))
            .chain(std::iter::once(task.to_string()))
            .collect(),
    };
    let quoted: Vec<String> = words
        .iter()
        .map(|w| crate::hint::shell_quote(w).into_owned())
        .collect();
    format!("skillpkg {}", quoted.join(" "))
}

/// What the REPL takes besides tasks, as `/help` lists it.
const REPL_COMMANDS: [(&str, &str); 5] = [
    ("/skills", "list the skills"),
    (
        "/<skill> [args]",
        "start from that skill, with its arguments",
    ),
    ("/help", "list these commands"),
    ("/exit", "leave (also /quit, or Ctrl-D)"),
    ("<task>", "anything else is a task for the agent"),
];

/// The error for a REPL input `/word` that is neither a command nor a
/// skill: the closest of them, and `/help`.
fn unknown_command(input: &str, skills: &[&crate::skill::Skill]) -> Option<Hinted> {
    let (name, _) = crate::agent::session::parse_slash(input)?;
    if skills.iter().any(|s| s.meta.name == name) {
        return None;
    }
    let commands = ["skills", "help", "exit", "quit"];
    let names = commands
        .into_iter()
        .chain(skills.iter().map(|s| s.meta.name.as_str()));
    let error = Hinted::new(format!("/{name} is no command and no skill"));
    let error = match crate::hint::did_you_mean(name, names) {
        Some(meant) => error.hint(format!("did you mean /{meant}?")),
        None => error,
    };
    Some(error.hint("/help lists the commands, /skills the skills"))
}

/// The REPL: reads inputs (with line editing and a history kept in
/// `.skillpkg/history`) until `/exit` or end of input; `/skills` lists
/// the skills, `/help` the commands; `/name args` starts from a skill;
/// anything else is a task.
/// The conversation carries on from one input to the next, and the skills
/// are loaded afresh for each, so ones added or edited meanwhile are used.
fn repl(
    context: &mut Context,
    model: &mut dyn crate::agent::model::Model,
    options: &ExecOptions,
    served: &[&crate::skill::Skill],
    on_text: &mut dyn FnMut(&str),
    approve: &mut crate::agent::run::Approver,
) -> anyhow::Result<ExitStatus> {
    let mut session = Session::start(model.id(), options)?;
    eprintln!("skillpkg exec: type a task, /skills, /name args, /help, or /exit");
    // Line editing, and a history kept with the project's state.
    let history = options.state_dir.join("history");
    let mut editor = rustyline::DefaultEditor::new()?;
    // Only a regular file is read, and saving replaces the file (never
    // writing through a link a cloned repository planted there).
    let regular = std::fs::symlink_metadata(&history).is_ok_and(|m| m.is_file());
    if regular {
        let _ = editor.load_history(&history);
    }
    loop {
        let line = match editor.readline("> ") {
            Ok(line) => line,
            // Ctrl-C at the prompt clears the line, as in a shell.
            Err(rustyline::error::ReadlineError::Interrupted) => continue,
            Err(rustyline::error::ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        };
        let input = line.trim();
        match input {
            "" => continue,
            "/exit" | "/quit" => break,
            _ => {}
        }
        let _ = editor.add_history_entry(input);
        if input == "/help" {
            for (command, what) in REPL_COMMANDS {
                context.printer.data(format_args!("{command:24} {what}"));
            }
            continue;
        }
        crate::agent::interrupt::reset();
        let loaded = super::load_skills(context)?;
        let mut skills: Vec<&crate::skill::Skill> =
            loaded.set.active().map(|e| &*e.skill).collect();
        let names: std::collections::BTreeSet<&str> =
            skills.iter().map(|s| s.meta.name.as_str()).collect();
        // A skill added to a root since the start wins over a served one.
        let served: Vec<&crate::skill::Skill> = served
            .iter()
            .filter(|s| !names.contains(s.meta.name.as_str()))
            .copied()
            .collect();
        skills.extend(served);
        if input == "/skills" {
            for skill in &skills {
                let from = skill
                    .origin
                    .as_deref()
                    .map(|origin| format!(" (from {origin})"))
                    .unwrap_or_default();
                context.printer.data(format_args!(
                    "/{:24} {}{from}",
                    skill.meta.name,
                    skill.meta.catalog_description()
                ));
            }
            continue;
        }
        if let Some(unknown) = unknown_command(input, &skills) {
            context.printer.error(&anyhow::anyhow!(unknown));
            continue;
        }
        match session.send(model, &skills, input, on_text, approve) {
            Ok(outcome) => {
                if !outcome.answer.ends_with('\n') {
                    println!();
                }
                if let Some(changes) = &outcome.changes {
                    report_changes(context, changes);
                }
                // On a terminal, nothing ends for want of someone to ask:
                // no grant hint is needed.
                report_ending(context, &outcome.ending, session.audit_path(), input, &[])?;
            }
            Err(e) => context.printer.error(&e),
        }
    }
    let saved = tempfile::Builder::new()
        .prefix(".history-")
        .tempfile_in(options.state_dir)
        .and_then(|saving| {
            editor
                .save_history(saving.path())
                .map_err(std::io::Error::other)?;
            saving.persist(&history).map_err(|e| e.error)?;
            Ok(())
        });
    if let Err(e) = saved {
        context.printer.warn(format_args!(
            "could not save the history to {}: {e}",
            history.display()
        ));
    }
    context.printer.verbose(format_args!(
        "audit log: {}",
        session.audit_path().display()
    ));
    Ok(ExitStatus::Success)
}
