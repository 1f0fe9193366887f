//! `shell`, and how every command (a shell line or a skill's script) is
//! launched: in the sandbox, in a process group of its own, within its
//! timeout, with the workspace's changes listed after.

use super::*;

impl Toolbox<'_> {
    /// Takes the snapshot of the workspace that [`Toolbox::changes`]
    /// compares with, before the run's first command or write.
    pub(super) fn snapshot_once(&mut self) {
        if self.before.is_none() {
            let max = sandbox::changes::MAX_FILES;
            self.before = Some(sandbox::changes::Snapshot::take(&self.workspace, max));
        }
    }

    /// What the run's commands and writes changed in the workspace; `None`
    /// when nothing ran that could.
    pub(crate) fn changes(&self) -> Option<sandbox::changes::Changes> {
        let before = self.before.as_ref()?;
        Some(before.changes(sandbox::changes::MAX_FILES))
    }

    /// Runs `program args…` in the workspace, in the run's sandbox.
    pub(super) fn launch(
        &mut self,
        program: &Path,
        args: &[String],
        extra_env: &[(&str, &Path)],
    ) -> Result<process::Outcome, String> {
        if self.sandbox.mode != SandboxMode::Off && self.tmpdir.is_none() {
            let made = crate::fsutil::private_tempdir("skillpkg-tmp-", None)
                .and_then(|dir| Ok((std::fs::canonicalize(dir.path())?, dir)))
                .map_err(|e| format!("could not create a private temporary folder: {e}"))?;
            self.tmpdir = Some((made.1, made.0));
        }
        self.snapshot_once();
        let tmpdir = self.tmpdir.as_ref().map(|(_, path)| path.as_path());
        if let Some(refused) = self.sandbox.refusal_if_unavailable() {
            return Err(refused);
        }
        let skill_dirs: Vec<PathBuf> = self
            .skills
            .values()
            .filter_map(|skill| std::fs::canonicalize(&skill.dir).ok())
            .collect();
        let command = self
            .sandbox
            .command(
                program,
                args,
                &self.workspace,
                tmpdir,
                extra_env,
                &skill_dirs,
            )
            .map_err(|e| e.to_string())?;
        let outcome =
            process::run(command, self.timeout, self.max_output).map_err(|e| e.to_string())?;
        if let Some(why) = sandbox::spec::setup_failure(outcome.code, &outcome.stderr) {
            return Err(format!(
                "the sandbox could not be set up, so nothing ran: {why}"
            ));
        }
        Ok(outcome)
    }

    pub(super) fn shell(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let command = str_arg(input, "command")?;
        let outcome = self
            .launch(
                Path::new("/bin/sh"),
                // `--`: a line that starts with `-` is the command, not
                // options of the shell.
                &["-c".to_string(), "--".to_string(), command.to_string()],
                &[],
            )
            .map_err(|e| format!("could not run the shell: {e}"))?;
        Ok(ToolOutput {
            is_error: outcome.code != Some(0),
            truncated: outcome.truncated,
            ..ToolOutput::ok(outcome.report())
        })
    }
}
