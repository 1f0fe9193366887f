//! Limits on what skillpkg reads and installs: an entry file of many
//! versions installs over HTTP.

use crate::common::{AcmeIndex, TestContext, new_project, skill_md, write_skill};
use crate::server::StaticServer;

#[test]
fn a_package_of_ten_thousand_versions_installs_over_http() {
    let ctx = TestContext::new();
    let acme = AcmeIndex::new(&ctx);
    let tool = write_skill(
        &ctx.root().join("src"),
        "tool",
        &skill_md("tool", "A tool. Use when testing."),
    );
    acme.publish_version(&ctx, &tool, "1.0.0");
    // 9,999 older versions before it: an entry file of about 7 MB, past
    // what other index files may be. Only 1.0.0 has an archive.
    let entry_file = acme.index.join("index/acme/tool");
    let line = std::fs::read_to_string(&entry_file).unwrap();
    let mut text = String::with_capacity(line.len() * 10_000);
    for i in 0..9_999 {
        text.push_str(&line.replace(
            "\"vers\":\"1.0.0\"",
            &format!("\"vers\":\"0.{}.{}\"", i / 100, i % 100),
        ));
    }
    text.push_str(&line);
    std::fs::write(&entry_file, &text).unwrap();
    assert!(text.len() > 4 << 20, "{}", text.len());
    let server = StaticServer::start(&acme.index);
    let app = new_project(&ctx, Some(&server.url()));
    ctx.ok_in(&app, &["add", "acme/tool"]);
    let lock = std::fs::read_to_string(app.join("skills.lock")).unwrap();
    assert!(lock.contains("version = \"1.0.0\""), "{lock}");
    assert!(app.join(".agents/skills/tool/SKILL.md").is_file());
}
