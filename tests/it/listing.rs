//! The search listing of folder indexes as `publish`, `yank`, `index init`
//! and `search` keep and read it: lines appended, folded by readers,
//! compacted; and listings in the form earlier builds wrote.

use std::path::Path;

use crate::common::new_project;
use crate::publish::{Publisher, entry_lines};

/// The lines of the index's `search.jsonl`.
fn listing_lines(index: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(index.join("search.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// What `search --json WORDS` finds through a project whose default
/// registry is `index`, as `name@version`.
fn found(p: &Publisher, index: &Path, words: &str) -> Vec<String> {
    let app = p.ctx.root().join("app");
    if !app.exists() {
        new_project(&p.ctx, Some(index.to_str().unwrap()));
    }
    let out = p.ctx.ok_in(&app, &["search", "--json", words]);
    let hits: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    hits.iter()
        .map(|hit| {
            format!(
                "{}@{}",
                hit["name"].as_str().unwrap(),
                hit["version"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn publishes_append_to_the_listing_and_search_folds_it() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let spec = index.to_str().unwrap();
    assert_eq!(
        std::fs::read_to_string(index.join("search.jsonl")).unwrap(),
        ""
    );
    for name in ["delta", "alpha", "gamma", "beta"] {
        p.publish(&p.skill(name, ""), spec, &[]).assert_ok();
    }
    let beta = p.ctx.root().join("src/beta");
    p.publish(&beta, spec, &["--version", "1.2.0"]).assert_ok();
    // A backport, published last, is not what the package shows.
    p.publish(&beta, spec, &["--version", "1.0.1"]).assert_ok();

    let lines = listing_lines(&index);
    let appended: Vec<String> = lines
        .iter()
        .map(|l| {
            format!(
                "{}@{}",
                l["name"].as_str().unwrap(),
                l["vers"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        appended,
        [
            "acme/delta@1.0.0",
            "acme/alpha@1.0.0",
            "acme/gamma@1.0.0",
            "acme/beta@1.0.0",
            "acme/beta@1.2.0",
            "acme/beta@1.0.1",
        ],
        "one line appended per publish"
    );
    let all = [
        "acme/alpha@1.0.0",
        "acme/beta@1.2.0",
        "acme/delta@1.0.0",
        "acme/gamma@1.0.0",
    ];
    assert_eq!(found(&p, &index, "skill"), all);

    // Yanking the version shown shows the one below it; `index init`
    // compacts the listing to one line per package, sorted, and search
    // finds the same.
    p.ctx.ok(&["yank", "acme/beta@1.2.0", "--index", spec]);
    assert_eq!(found(&p, &index, "beta"), ["acme/beta@1.0.1"]);
    p.ctx.ok(&["yank", "acme/delta@1.0.0", "--index", spec]);
    assert_eq!(found(&p, &index, "delta"), Vec::<String>::new());
    assert_eq!(listing_lines(&index).len(), 9);
    p.ctx.ok(&["index", "init", spec]);
    let compacted = std::fs::read_to_string(index.join("search.jsonl")).unwrap();
    let lines = listing_lines(&index);
    assert_eq!(lines.len(), 3, "{compacted}");
    assert_eq!(lines[0]["compacted"], compacted.len());
    assert_eq!(lines[1]["vers"], "1.0.1");
    assert_eq!(
        found(&p, &index, "skill"),
        ["acme/alpha@1.0.0", "acme/beta@1.0.1", "acme/gamma@1.0.0"]
    );
    p.ctx
        .ok(&["yank", "--undo", "acme/beta@1.2.0", "--index", spec]);
    p.ctx
        .ok(&["yank", "--undo", "acme/delta@1.0.0", "--index", spec]);
    assert_eq!(found(&p, &index, "skill"), all);
}

#[test]
fn a_listing_in_the_old_form_is_read_appended_to_and_compacted_once_large() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let spec = index.to_str().unwrap();
    p.publish(&p.skill("alpha", ""), spec, &[]).assert_ok();
    // What earlier builds wrote: one line per package, sorted, nothing
    // else; here 1,000 packages of about 90 bytes, past the size below
    // which a listing is never compacted.
    let old: String = (0..1000)
        .map(|i| {
            format!(
                "{{\"name\":\"old/p{i:03}\",\"vers\":\"0.{i}.0\",\"desc\":\"An old package, number {i}, for listings.\"}}\n"
            )
        })
        .collect();
    let alpha = "{\"name\":\"acme/alpha\",\"vers\":\"1.0.0\",\"desc\":\"The alpha skill. Use when testing.\"}\n";
    std::fs::write(index.join("search.jsonl"), format!("{alpha}{old}")).unwrap();
    assert_eq!(found(&p, &index, "old p123"), ["old/p123@0.123.0"]);
    assert_eq!(found(&p, &index, "alpha"), ["acme/alpha@1.0.0"]);

    // The first publish compacts it once: same packages, one line each,
    // and its size on the first line, after which publishes append.
    p.publish(
        &p.ctx.root().join("src/alpha"),
        spec,
        &["--version", "1.1.0"],
    )
    .assert_ok();
    let lines = listing_lines(&index);
    assert_eq!(lines.len(), 1001);
    assert_eq!(lines[0]["vers"], "1.1.0");
    let size = lines[0]["compacted"].as_u64().unwrap();
    assert_eq!(
        std::fs::metadata(index.join("search.jsonl")).unwrap().len(),
        size
    );
    p.publish(&p.skill("beta", ""), spec, &[]).assert_ok();
    let lines = listing_lines(&index);
    assert_eq!(lines.len(), 1002);
    assert_eq!(lines[1001]["name"], "acme/beta");
    assert_eq!(lines[0]["compacted"], size);
    assert_eq!(found(&p, &index, "old p999"), ["old/p999@0.999.0"]);
    assert_eq!(found(&p, &index, "testing").len(), 2);

    // A small listing in the old form is appended to as it is.
    let small = p.init_index("small", false);
    let small_spec = small.to_str().unwrap();
    let few: String = old.split_inclusive('\n').take(70).collect();
    std::fs::write(small.join("search.jsonl"), &few).unwrap();
    p.publish(&p.skill("gamma", ""), small_spec, &[])
        .assert_ok();
    let text = std::fs::read_to_string(small.join("search.jsonl")).unwrap();
    assert!(text.starts_with(&few), "{text}");
    assert_eq!(text.lines().count(), 71);
}

#[test]
fn a_version_is_published_once_whatever_the_archives_say() {
    let p = Publisher::new();
    let index = p.init_index("index", false);
    let spec = index.to_str().unwrap();
    let dir = p.skill("tool", "");
    p.publish(&dir, spec, &[]).assert_ok();
    let refused_again = || {
        let out = p.publish(&dir, spec, &[]).assert_fails();
        assert!(
            out.stderr
                .contains("acme/tool@1.0.0 is already in the index"),
            "{}",
            out.stderr
        );
    };
    refused_again();

    // An archive left by a publish cut short before its entry line does
    // not hold the version: the entry file says what is published.
    let orphan = index.join("packages/acme/tool/tool-2.0.0.skill");
    std::fs::write(&orphan, b"cut short").unwrap();
    p.publish(&dir, spec, &["--version", "2.0.0"]).assert_ok();
    assert_ne!(std::fs::read(&orphan).unwrap(), b"cut short");

    // An entry file edited by hand without a final newline still gets
    // the next line on a line of its own.
    let entry_file = index.join("index/acme/tool");
    let text = std::fs::read_to_string(&entry_file).unwrap();
    std::fs::write(&entry_file, text.trim_end()).unwrap();
    p.publish(&dir, spec, &["--version", "3.0.0"]).assert_ok();
    let versions: Vec<String> = entry_lines(&index, "acme/tool")
        .iter()
        .map(|e| e["vers"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(versions, ["1.0.0", "2.0.0", "3.0.0"]);

    // An index whose archives are served from elsewhere (its `dl` is
    // not the default) may not keep them: its entry file is read.
    let config_path = index.join("config.json");
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config_path).unwrap()).unwrap();
    config["dl"] = "https://cdn.example.com/{org}/{name}/{version}.skill".into();
    std::fs::write(&config_path, config.to_string()).unwrap();
    std::fs::remove_file(index.join("packages/acme/tool/tool-1.0.0.skill")).unwrap();
    refused_again();
    assert_eq!(entry_lines(&index, "acme/tool").len(), 3);
}
