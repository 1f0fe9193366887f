//! The skill tools: `use_skill` (level 2), `read_resource` and `run_script`
//! (level 3), and `search_skills`.

use super::*;

/// Files listed with an activated skill, at most.
const MAX_LISTED_FILES: usize = 50;

/// A file of a skill's directory, resolved.
struct Resource<'s, 'v> {
    skill: &'s Skill,
    dir: PathBuf,
    relative: &'v str,
    path: PathBuf,
}

impl Resource<'_, '_> {
    /// `output`, recorded as a level-3 disclosure of this resource.
    fn disclose(&self, output: ToolOutput) -> ToolOutput {
        ToolOutput {
            disclosure: Some(Disclosure {
                skill: self.skill.meta.name.clone(),
                level: 3,
                path: Some(self.relative.to_string()),
                bytes: output.content.len(),
            }),
            ..output
        }
    }
}

/// The files of a skill directory, relative, sorted.
fn list_files(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            e.path()
                .strip_prefix(dir)
                .ok()
                .map(|p| p.display().to_string())
        })
        .filter(|p| p != "SKILL.md" && p != "skill.md")
        .collect();
    files.sort();
    files
}

impl<'s> Toolbox<'s> {
    /// Level 2: activates a skill (the model's `use_skill`, or `/name`).
    /// A second identical activation returns a short note.
    pub(crate) fn activate(&mut self, name: &str, args: &str) -> Result<ToolOutput, String> {
        let skill = *self
            .skills
            .get(name)
            .ok_or_else(|| format!("there is no skill named '{name}'"))?;
        self.check_pin(name);
        if let Some(served) = self.served.get(name) {
            served
                .check(&skill.dir, "SKILL.md")
                .map_err(|e| format!("refused: {e}"))?;
        }
        if !self.loaded.insert((name.to_string(), args.to_string())) {
            return Ok(ToolOutput::ok(format!(
                "The skill '{name}' is already loaded with these arguments; its instructions are above."
            )));
        }
        let body = skill.read_instructions().map_err(|e| e.to_string())?;
        let names: Vec<String> = match skill.meta.extra.get("arguments") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            Some(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
            _ => Vec::new(),
        };
        let body = substitute(&body, args, &names);
        let files = match self.served.get(name) {
            Some(served) => served.resources(),
            None => list_files(&skill.dir),
        };
        let mut text = format!(
            "<skill name=\"{name}\">\n{}\n</skill>\nSkill directory: {}\n",
            body.trim_end(),
            skill.dir.display()
        );
        if !files.is_empty() {
            text.push_str("Files:\n");
            for file in files.iter().take(MAX_LISTED_FILES) {
                text.push_str(&format!("- {file}\n"));
            }
            if files.len() > MAX_LISTED_FILES {
                text.push_str(&format!(
                    "- … and {} more\n",
                    files.len() - MAX_LISTED_FILES
                ));
            }
        }
        if !self.active.iter().any(|n| n == name) {
            self.active.push(name.to_string());
        }
        Ok(ToolOutput {
            disclosure: Some(Disclosure {
                skill: name.to_string(),
                level: 2,
                path: None,
                bytes: text.len(),
            }),
            ..ToolOutput::ok(text)
        })
    }

    /// Withdraws `name`'s grants for the rest of the run when its folder
    /// no longer holds the tree they were approved for. Hashes the folder
    /// once per toolbox, and only for a skill with grants and a pin.
    fn check_pin(&mut self, name: &str) {
        if !self.grants.contains_key(name) || self.pins_held.contains(name) {
            return;
        }
        let Some(pin) = self.pins.get(name) else {
            return;
        };
        match pin.check() {
            Ok(()) => {
                self.pins_held.insert(name.to_string());
            }
            Err(reason) => {
                self.grants.remove(name);
                self.pins.remove(name);
                self.withdrawn.push(crate::agent::pins::Withdrawn {
                    skill: name.to_string(),
                    reason,
                });
            }
        }
    }

    /// The grants withdrawn since the last call, for the audit and a
    /// warning.
    pub(crate) fn take_withdrawn(&mut self) -> Vec<crate::agent::pins::Withdrawn> {
        std::mem::take(&mut self.withdrawn)
    }

    pub(super) fn use_skill(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let name = str_arg(input, "name")?;
        if !self.is_invocable(name) {
            return Err(if self.skills.contains_key(name) {
                format!(
                    "the skill '{name}' can only be invoked by the user (disable-model-invocation)"
                )
            } else {
                let meant =
                    crate::hint::did_you_mean(name, self.invocable.iter().map(String::as_str));
                match meant {
                    Some(meant) => format!(
                        "there is no skill named '{name}'; did you mean '{meant}'? (search_skills finds skills by keyword)"
                    ),
                    None => format!(
                        "there is no skill named '{name}'; search_skills finds skills by keyword"
                    ),
                }
            });
        }
        let args = input["args"].as_str().unwrap_or("");
        self.activate(name, args)
    }

    fn skill_dir(&self, input: &Value) -> Result<(&'s Skill, PathBuf), String> {
        let name = str_arg(input, "skill")?;
        let skill = *self
            .skills
            .get(name)
            .ok_or_else(|| format!("there is no skill named '{name}'"))?;
        let dir = std::fs::canonicalize(&skill.dir).map_err(|e| e.to_string())?;
        Ok((skill, dir))
    }

    /// The file `{skill, path}` names, confined to that skill's directory.
    fn resource<'v>(&self, input: &'v Value) -> Result<Resource<'s, 'v>, String> {
        let (skill, dir) = self.skill_dir(input)?;
        let relative = str_arg(input, "path")?;
        if let Some(served) = self.served.get(&skill.meta.name) {
            served
                .listed(relative)
                .map_err(|e| format!("refused: {e}"))?;
        }
        let path = Confinement::new([dir.clone()])
            .existing(&dir, relative)
            .map_err(|e| e.to_string())?;
        Ok(Resource {
            skill,
            dir,
            relative,
            path,
        })
    }

    pub(super) fn read_resource(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let resource = self.resource(input)?;
        if let Some(served) = self.served.get(&resource.skill.meta.name) {
            served
                .check(&resource.dir, resource.relative)
                .map_err(|e| format!("refused: {e}"))?;
        }
        Ok(resource.disclose(super::files::read_text(&resource.path)?))
    }

    pub(super) fn run_script(&mut self, input: &Value) -> Result<ToolOutput, String> {
        let resource = self.resource(input)?;
        let (dir, relative, path) = (&resource.dir, resource.relative, &resource.path);
        if let Some(served) = self.served.get(&resource.skill.meta.name) {
            // A script may read the skill's other files: all are checked.
            served.check_all(dir).map_err(|e| format!("refused: {e}"))?;
        }
        let args = script_args(input)?;
        let outcome = self
            .launch(path, &args, &[("SKILL_DIR", dir)])
            .map_err(|e| format!("could not run {relative}: {e}"))?;
        Ok(resource.disclose(ToolOutput {
            is_error: outcome.code != Some(0),
            truncated: outcome.truncated,
            ..ToolOutput::ok(outcome.report())
        }))
    }

    /// For a `run_script` call, the command line that runs the same
    /// thing, for the policy to match against the skill's shell grants;
    /// `None` for other tools and for calls that would fail anyway.
    pub(crate) fn script_line(&self, tool: &str, input: &Value) -> Option<tool_policy::ScriptLine> {
        if tool != "run_script" {
            return None;
        }
        let resource = self.resource(input).ok()?;
        let args = script_args(input).ok()?;
        Some(tool_policy::ScriptLine {
            skill: resource.skill.meta.name.clone(),
            words: script_line::words(&resource.dir, &resource.path, &args),
        })
    }

    /// Every skill whose name or description holds a word of `query`,
    /// best first (the model-invocable ones only).
    pub(crate) fn search_skills(&self, query: &str) -> ToolOutput {
        let invocable: Vec<&Skill> = self
            .invocable
            .iter()
            .filter_map(|name| self.skills.get(name).copied())
            .collect();
        let hits: Vec<(&Skill, f64)> = crate::agent::rank::Ranker::new(&invocable)
            .rank(query)
            .into_iter()
            .filter(|(_, score)| *score > 0.0)
            .collect();
        if hits.is_empty() {
            return ToolOutput::ok("No skill matches those words.");
        }
        let lines: Vec<String> = hits
            .iter()
            .take(10)
            .map(|(s, _)| format!("- {}: {}", s.meta.name, s.meta.catalog_description()))
            .collect();
        ToolOutput::ok(format!("{}\nLoad one with use_skill.", lines.join("\n")))
    }
}
