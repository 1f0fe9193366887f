//! `trust.toml` records the user's consent: the projects trusted and the
//! grants approved for hand-written skills (`ops::consent::record::TrustFile`).
//! It is the user's own file, but it may be edited by hand, synced from
//! another machine or damaged, so any text must be loaded or refused
//! without panicking. A file that loads must survive `TrustFile::update`,
//! which every approval goes through (it serialises the file with an
//! `expect`): the update writes it back with exactly the change made, and
//! every other record as it was.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use skillpkg::dirs::Dirs;
use skillpkg::ops::consent::record::{SkillApproval, TRUST_FILE, TrustFile};

fn dirs() -> &'static Dirs {
    static DIRS: OnceLock<(tempfile::TempDir, Dirs)> = OnceLock::new();
    &DIRS
        .get_or_init(|| {
            // In memory when there is a tmpfs: each run writes the file.
            let shm = std::path::Path::new("/dev/shm");
            let root = match shm.is_dir() {
                true => tempfile::tempdir_in(shm),
                false => tempfile::tempdir(),
            }
            .expect("a scratch directory");
            let at = |name: &str| -> PathBuf {
                let dir = root.path().join(name);
                std::fs::create_dir_all(&dir).expect("a scratch directory");
                dir
            };
            let dirs = Dirs {
                config: at("config"),
                cache: at("cache"),
                data: at("data"),
                user_root: at("skills"),
                home: None,
            };
            (root, dirs)
        })
        .1
}

const PROJECT: &str = "/fuzz/a project";

fuzz_target!(|data: &[u8]| {
    let dirs = dirs();
    let path = dirs.config.join(TRUST_FILE);
    std::fs::write(&path, data).expect("the trust file is written");
    let Ok(loaded) = TrustFile::load(dirs) else {
        return;
    };

    // An approval, as `exec` and `grants approve` record one.
    let skill = "/fuzz/skills/pdf".to_string();
    let approval = SkillApproval {
        tree: "h1:0123".to_string(),
        grants: vec!["Bash(git status:*)".to_string()],
    };
    let (p, s) = (PROJECT.to_string(), skill.clone());
    let a = approval.clone();
    TrustFile::update(dirs, move |file| {
        file.projects.insert(p, "h1:abcd".to_string());
        file.skills.insert(s, a);
    })
    .expect("a trust file that loads can be updated");

    let updated = TrustFile::load(dirs).expect("an updated trust file loads");
    let mut projects = loaded.projects.clone();
    projects.insert(PROJECT.to_string(), "h1:abcd".to_string());
    let mut skills = loaded.skills.clone();
    skills.insert(skill, approval);
    assert_eq!(
        updated.projects, projects,
        "the update changed other projects"
    );
    assert_eq!(updated.skills, skills, "the update changed other approvals");

    // Withdrawn again, the rest is as it was loaded.
    TrustFile::update(dirs, |file| {
        file.projects = loaded.projects.clone();
        file.skills = loaded.skills.clone();
    })
    .expect("the trust file updates again");
    let back = TrustFile::load(dirs).expect("the trust file loads again");
    assert_eq!(back.projects, loaded.projects);
    assert_eq!(back.skills, loaded.skills);
});
