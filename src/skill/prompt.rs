//! Level-1 catalog rendering: the `<available_skills>` block of the
//! reference implementation (`agentskills to-prompt`) and a Markdown form.

use super::Skill;

/// Python's `html.escape(s, quote=True)`.
pub(crate) fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

fn location(skill: &Skill) -> String {
    let path = std::fs::canonicalize(&skill.skill_md).unwrap_or_else(|_| skill.skill_md.clone());
    path.display().to_string()
}

/// The `<available_skills>` XML block, byte for byte as skills-ref renders it.
pub(crate) fn to_xml(skills: &[&Skill]) -> String {
    if skills.is_empty() {
        return "<available_skills>\n</available_skills>".to_string();
    }
    let mut lines = vec!["<available_skills>".to_string()];
    for skill in skills {
        lines.push("<skill>".into());
        lines.push("<name>".into());
        lines.push(html_escape(&skill.meta.name));
        lines.push("</name>".into());
        lines.push("<description>".into());
        lines.push(html_escape(skill.meta.catalog_description()));
        lines.push("</description>".into());
        lines.push("<location>".into());
        lines.push(location(skill));
        lines.push("</location>".into());
        lines.push("</skill>".into());
    }
    lines.push("</available_skills>".into());
    lines.join("\n")
}

/// The same catalog as a Markdown list.
pub(crate) fn to_markdown(skills: &[&Skill]) -> String {
    let mut out = String::from("## Available skills\n\n");
    if skills.is_empty() {
        out.push_str("(none)\n");
    }
    for skill in skills {
        let description = skill.meta.catalog_description().replace('\n', " ");
        out.push_str(&format!(
            "- **{}**: {} (`{}`)\n",
            skill.meta.name,
            description,
            location(skill)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_python() {
        assert_eq!(
            html_escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;"
        );
    }
}
