
use builtin;
use str;

set edit:completion:arg-completer[skillpkg] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'skillpkg'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'skillpkg'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Create a skills.toml for a project'
            cand add 'Add packages to skills.toml and install them'
            cand remove 'Remove packages from skills.toml and the project root'
            cand install 'Install what skills.toml asks for, as skills.lock pins it'
            cand import 'Take over skills `npx skills` installed, or folders placed by hand'
            cand update 'Move locked versions to the newest that skills.toml allows'
            cand outdated 'List locked packages that have newer versions'
            cand disable 'Turn skills off without uninstalling them: left out of exec, serve and agents'' folders'
            cand enable 'Turn disabled skills back on'
            cand trust 'Trust another signing key for an org (or swap its keys), or this project''s settings'
            cand grants 'List, approve or revoke the tools skills'' allowed-tools pre-approve'
            cand verify 'Check installed skills against skills.lock'
            cand targets 'List agents'' folders skills are placed in, and what is in them'
            cand export 'Write the locked skills out for other tools: `export plugin OUT`'
            cand sbom 'Print a software bill of materials of the installed skills (CycloneDX or SPDX JSON)'
            cand signature 'Check signatures by hand: `signature verify PATH`'
            cand search 'Search an index''s packages by name and description'
            cand registry 'Name indexes in skills.toml''s [registries]'
            cand cache 'Show or empty the cache'
            cand list 'List every skill of every root, marking shadowed ones'
            cand show 'Show one skill: metadata, location, files and which root won'
            cand prompt 'Print the level-1 catalog an agent sees'
            cand validate 'Check skills against the Agent Skills specification'
            cand scan 'Scan skills for remote code run, secrets sent, hidden instructions'
            cand new 'Create a new skill from a template'
            cand pack 'Validate a skill and write a deterministic `.skill` archive'
            cand keygen 'Create a minisign key pair for signing packages'
            cand publish 'Pack, sign and add a skill to an index'
            cand yank 'Mark a published version as yanked, or not'
            cand promote 'Move a published version to another channel, signed by the org'
            cand mirror 'Copy upstream skills into an org''s index, as drafts'
            cand index 'Manage an index'
            cand exec 'Run an agent over the resolved skills'
            cand serve 'Serve the project''s verified skills to agents over MCP'
            cand eval 'Run eval cases: do the skills trigger and behave as intended?'
            cand completions 'Print a shell completion script'
            cand doctor 'Show the platform, the sandbox, the agents found, skillpkg''s folders and what is missing'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;init'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;add'= {
            cand --registry 'The registry (a name under [registries]) to take them from'
            cand --channel 'Take versions from this channel and those above it (recorded in skills.toml as `channel`): testing or draft versions are seen only by projects that ask for them'
            cand --path 'Install the skill in this folder (pinned by content hash), or each skill of the plugin it holds (plugin.json, .claude-plugin/, .codex-plugin/)'
            cand --git 'Install the skill from this git repository (pinned by commit), whatever form its URL has (it is not probed or rewritten)'
            cand --well-known 'Install skills a site publishes in its agent-skills index (/.well-known/agent-skills/index.json, the Agent Skills discovery RFC), or listed by the index at this URL (pinned by digest)'
            cand --rev 'Of a repository: the branch, tag or commit (default: the remote''s HEAD)'
            cand --subdir 'Of a repository: the skill''s folder inside it (default: every skill the repository holds)'
            cand --signed-by 'Of a repository: install only a commit signed by this signer (repeatable): an OpenSSH public key (`ssh-ed25519 AAAA…`, or a .pub file holding it), gpg:FINGERPRINT, or a gitsign signer as sigstore:IDENTITY,ISSUER (sigstore-regexp:PATTERN,ISSUER). Recorded in skills.toml as `signed-by`, the signer in skills.lock; every install checks it'
            cand --trusted-root 'With --signed-by sigstore:…: the trusted_root.json (a file in the project) gitsign certificates must chain to (default: Sigstore''s public-good root). Recorded in skills.toml as `trusted-root`'
            cand --skill 'Of a repository, a site or an OCI collection: add only the skills with this name (repeatable; globs such as ''pdf*'')'
            cand --replace 'Let this source take over NAME, which skills.toml takes from another source (repeatable)'
            cand --link-mode 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)'
            cand --insecure-registry 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS'
            cand --max-skill-size 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large'
            cand --list 'Of a repository, a site or an OCI artifact: list its skills, and add nothing'
            cand --force 'Replace managed skills even if they were edited locally'
            cand --allow-unsigned 'Accept unsigned packages from remote indexes'
            cand --offline 'Use only the cache and local indexes: fetch nothing'
            cand --require-valid 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
            cand --approve-grants 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking'
            cand -g 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --global 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --no-scan 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;remove'= {
            cand --max-skill-size 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large'
            cand --force 'Remove managed skills even if they were edited locally'
            cand --offline 'Use only the cache and local indexes: fetch nothing (for the skills that stay, should one be missing)'
            cand --allow-unsigned 'Accept the unsigned packages from remote indexes that stay (they are checked again, as every install checks what the lock pins)'
            cand -g 'Work on the user''s global skills instead of the project''s'
            cand --global 'Work on the user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;install'= {
            cand --link-mode 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)'
            cand --insecure-registry 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS'
            cand --max-skill-size 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large'
            cand --locked 'Fail if skills.lock would change'
            cand --frozen '--locked and --offline together: exactly the lock, from this machine alone'
            cand --force 'Replace managed skills even if they were edited locally'
            cand --allow-unsigned 'Accept unsigned packages from remote indexes'
            cand --offline 'Use only the cache and local indexes: fetch nothing'
            cand --require-valid 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
            cand --approve-grants 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking'
            cand -g 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --global 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --no-scan 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;import'= {
            cand --from 'Take over the skill folders in DIR that no lock names (such as .claude/skills), instead of reading skills-lock.json. Lists them; --adopt takes them over'
            cand --link-mode 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)'
            cand --insecure-registry 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS'
            cand --max-skill-size 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large'
            cand --adopt 'With --from: move each folder to the project''s skills/ folder, install it from there as it is, and link it back where it was'
            cand --allow-outside 'Also take the skills whose local source skills-lock.json places outside the project (read them first: a cloned project''s lock may point anywhere)'
            cand --force 'Replace managed skills even if they were edited locally'
            cand --allow-unsigned 'Accept unsigned packages from remote indexes'
            cand --offline 'Use only the cache and local indexes: fetch nothing'
            cand --require-valid 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
            cand --approve-grants 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking'
            cand -g 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --global 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --no-scan 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;update'= {
            cand --channel 'Take versions from this channel and those above it, for packages whose entry in skills.toml names no channel (default: published)'
            cand --link-mode 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)'
            cand --insecure-registry 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS'
            cand --max-skill-size 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large'
            cand --dry-run 'Only say what would change'
            cand --allow-signer-change 'Accept a git skill''s new commit signed by another of the signers its `signed-by` names than the locked commit was'
            cand --force 'Replace managed skills even if they were edited locally'
            cand --allow-unsigned 'Accept unsigned packages from remote indexes'
            cand --offline 'Use only the cache and local indexes: fetch nothing'
            cand --require-valid 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
            cand --approve-grants 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking'
            cand -g 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --global 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s'
            cand --no-scan 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;outdated'= {
            cand --channel 'Look for versions in this channel and those above it, for packages whose entry in skills.toml names no channel (default: published)'
            cand --diff 'Also fetch, verify and scan each update `update` would make, and say what the new version newly does: hosts it reaches, credential files and secrets it reads, commands, scripts, grants it asks for, a new signer or owner. Nothing is installed, and skills.toml and skills.lock stay as they are (the cache keeps what was fetched)'
            cand --json 'Print JSON on stdout'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;disable'= {
            cand -g 'Work on the user''s global skills instead of the project''s'
            cand --global 'Work on the user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;enable'= {
            cand -g 'Work on the user''s global skills instead of the project''s'
            cand --global 'Work on the user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;trust'= {
            cand --key 'A minisign public key of the org (a `.pub` file or its base64 line), added to the keys skills.lock pins for it'
            cand --oms-root 'A PEM file of OMS root certificates: skills from SOURCE must carry a `skill.oms.sig` whose certificate chains to one of them'
            cand --sigstore-identity 'The Sigstore identity (certificate email or workflow URI, exactly) that must sign SOURCE''s packages'
            cand --sigstore-identity-regexp 'A regex the whole Sigstore identity must match, instead of --sigstore-identity'
            cand --sigstore-issuer 'The OIDC issuer that must vouch for the Sigstore identity'
            cand --trusted-root 'The trusted_root.json Sigstore signatures are checked against (default: Sigstore''s public-good root)'
            cand --list 'list'
            cand --json 'json'
            cand --project 'project'
            cand --revoke 'revoke'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand --replace 'Make this the only signer SOURCE accepts, and drop what skills.lock pinned for its skills, so that the next install records the new signer (the source changed who signs)'
            cand --remove 'Remove SOURCE''s signer policy'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand key 'Say who may sign a source''s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`'
            cand project 'Trust this project''s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`'
            cand list 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;trust;key'= {
            cand --key 'A minisign public key of the org (a `.pub` file or its base64 line), added to the keys skills.lock pins for it'
            cand --oms-root 'A PEM file of OMS root certificates: skills from SOURCE must carry a `skill.oms.sig` whose certificate chains to one of them'
            cand --sigstore-identity 'The Sigstore identity (certificate email or workflow URI, exactly) that must sign SOURCE''s packages'
            cand --sigstore-identity-regexp 'A regex the whole Sigstore identity must match, instead of --sigstore-identity'
            cand --sigstore-issuer 'The OIDC issuer that must vouch for the Sigstore identity'
            cand --trusted-root 'The trusted_root.json Sigstore signatures are checked against (default: Sigstore''s public-good root)'
            cand --replace 'Make this the only signer SOURCE accepts, and drop what skills.lock pinned for its skills, so that the next install records the new signer (the source changed who signs)'
            cand --remove 'Remove SOURCE''s signer policy'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;trust;project'= {
            cand --revoke 'Stop trusting it'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;trust;list'= {
            cand --json 'Print JSON on stdout'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;trust;help'= {
            cand key 'Say who may sign a source''s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`'
            cand project 'Trust this project''s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`'
            cand list 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;trust;help;key'= {
        }
        &'skillpkg;trust;help;project'= {
        }
        &'skillpkg;trust;help;list'= {
        }
        &'skillpkg;trust;help;help'= {
        }
        &'skillpkg;grants'= {
            cand --mcp-skills 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand list 'List the skills whose allowed-tools ask for tools, and what is approved'
            cand approve 'Approve every tool these skills'' allowed-tools ask for'
            cand revoke 'Withdraw these skills'' approved grants'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;grants;list'= {
            cand --mcp-skills 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)'
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;grants;approve'= {
            cand --mcp-skills 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;grants;revoke'= {
            cand --mcp-skills 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;grants;help'= {
            cand list 'List the skills whose allowed-tools ask for tools, and what is approved'
            cand approve 'Approve every tool these skills'' allowed-tools ask for'
            cand revoke 'Withdraw these skills'' approved grants'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;grants;help;list'= {
        }
        &'skillpkg;grants;help;approve'= {
        }
        &'skillpkg;grants;help;revoke'= {
        }
        &'skillpkg;grants;help;help'= {
        }
        &'skillpkg;verify'= {
            cand --json 'Print JSON on stdout'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand --fix 'Restore the links and copies in agents'' folders that drifted, from the installed skills (which must match skills.lock)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;targets'= {
            cand --json 'Print JSON on stdout'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;export'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand plugin 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;export;plugin'= {
            cand --name 'The plugin''s name: 1 to 64 of a-z, 0-9, ''-'' and ''.'''
            cand --version 'The plugin''s version (semver recommended)'
            cand --description 'The plugin''s description'
            cand --force 'Replace OUT when it is a plugin folder written before (it holds a plugin.json)'
            cand -g 'Export the user''s global skills instead of the project''s'
            cand --global 'Export the user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;export;help'= {
            cand plugin 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;export;help;plugin'= {
        }
        &'skillpkg;export;help;help'= {
        }
        &'skillpkg;sbom'= {
            cand --format 'The document format'
            cand -g 'The user''s global skills instead of the project''s'
            cand --global 'The user''s global skills instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;signature'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand verify 'Verify a file''s or a skill folder''s signature; exit 0 only when it verifies'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;signature;verify'= {
            cand --minisign-key 'A minisign public key (its base64 line, or a .pub file) that may have signed it (repeatable)'
            cand --signature 'The minisign signature (default: PATH.minisig), or a folder''s OMS signature (default: PATH/skill.oms.sig)'
            cand --bundle 'A Sigstore bundle (JSON) to verify instead of a minisign signature'
            cand --identity 'The identity that must have signed the bundle: the certificate''s email or workflow URI, exactly'
            cand --identity-regexp 'A regex that must match the whole signing identity, instead of --identity'
            cand --issuer 'The OIDC issuer that must have vouched for the identity'
            cand --key 'The public key (PEM) of a keyed Sigstore bundle, instead of an identity, or of a folder''s OMS signature made with a bare key'
            cand --trusted-root 'The trusted_root.json to verify the bundle (or a folder''s keyless OMS signature) against (default: the public-good Sigstore root embedded in skillpkg)'
            cand --oms-root 'The root certificates (PEM, one or more) a folder''s OMS signature must chain to'
            cand --staging 'Verify against Sigstore''s staging instance instead'
            cand --ignore-unsigned-files 'Check only the files a folder''s OMS signature lists: a file it does not list is let be (a listed one must still be there)'
            cand --json 'Print the verdict as JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;signature;help'= {
            cand verify 'Verify a file''s or a skill folder''s signature; exit 0 only when it verifies'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;signature;help;verify'= {
        }
        &'skillpkg;signature;help;help'= {
        }
        &'skillpkg;search'= {
            cand --registry 'A registry named under [registries] (default: the project''s default, else the built-in index)'
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;registry'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand add 'Add an index to skills.toml''s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;registry;add'= {
            cand --git 'The index is a git repository: record https://… and ssh://… URLs as git+https://… and git+ssh://…'
            cand --default 'Also make it the default registry (`default` under [registries])'
            cand -g 'The user''s global manifest instead of the project''s'
            cand --global 'The user''s global manifest instead of the project''s'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;registry;help'= {
            cand add 'Add an index to skills.toml''s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;registry;help;add'= {
        }
        &'skillpkg;registry;help;help'= {
        }
        &'skillpkg;cache'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand dir 'Print the cache directory'
            cand clean 'Delete everything in the cache; it is rebuilt on demand'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;cache;dir'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;cache;clean'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;cache;help'= {
            cand dir 'Print the cache directory'
            cand clean 'Delete everything in the cache; it is rebuilt on demand'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;cache;help;dir'= {
        }
        &'skillpkg;cache;help;clean'= {
        }
        &'skillpkg;cache;help;help'= {
        }
        &'skillpkg;list'= {
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;show'= {
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;prompt'= {
            cand --format 'Output format'
            cand --task 'Rank the skills for this task and fit the catalog `exec` would build for it into its budget (XML only)'
            cand --budget 'The catalog''s budget in characters, with --task (default: exec''s, 2% of the configured model''s context window)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;validate'= {
            cand --strict 'Also warn about things that are valid but unhelpful to agents'
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;scan'= {
            cand --waive 'Record in skills.lock that this rule''s finding is accepted (with --skill, --file and --reason), instead of scanning'
            cand --skill 'The skill a waiver is for: an installed skill, or a package to install'
            cand --file 'The file a waiver is for, relative to the skill'
            cand --reason 'Why the finding is accepted; reviewers read it in the lock''s diff'
            cand --digest 'The file''s digest, for a package not installed yet (a refused install prints it)'
            cand --json 'Print JSON on stdout'
            cand --sarif 'Print SARIF 2.1.0 on stdout, for code-scanning dashboards'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;new'= {
            cand --path 'The directory to create it in (default: the current directory)'
            cand -d 'The description (what it does and when to use it)'
            cand --description 'The description (what it does and when to use it)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;pack'= {
            cand -o 'Where to write the archive (default: `<name>-<version>.skill` here)'
            cand --output 'Where to write the archive (default: `<name>-<version>.skill` here)'
            cand --max-skill-size 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large'
            cand --layer 'Write the layer an OCI index holds (`<name>-<version>.tar.gz`: the archive''s files as a deterministic tar+gzip) instead, to make a Sigstore bundle over for `publish --index oci://…`'
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;keygen'= {
            cand --out 'Directory for `skillpkg.pub` and `skillpkg.key` (default: the config directory)'
            cand --no-password 'Do not encrypt the secret key with a password'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;publish'= {
            cand --index 'The index: a folder, a git repository path, a git URL (git+https://…, file://…), or an OCI registry namespace (oci://HOST/NAMESPACE)'
            cand --org 'The organisation to publish under (org/name)'
            cand --key 'The minisign secret key file that signs the archive (default: the config directory''s skillpkg.key, which `skillpkg keygen` writes)'
            cand --sigstore-bundle 'A Sigstore bundle over the archive, made in CI over the `.skill` that `pack` wrote (cosign sign-blob writes one): recorded in the index entry beside the minisign signature, or instead of it when no --key is given and there is no default key'
            cand --version 'The version (default: the skill''s metadata.version); with --collection, the collection''s'
            cand --collection 'Also publish the skills as the collection NAME (org/NAME, an OCI image index of their artifacts, at --version); each skill is published at its own metadata.version, or kept where that version is there with the same content'
            cand --dependencies 'Dependencies, comma-separated org/name@req (default: metadata.dependencies)'
            cand --channel 'The channel the version starts in, signed with --key: draft and testing versions are seen only by projects that ask for them (`skillpkg promote` moves them on)'
            cand --max-skill-size 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large'
            cand --allow-invalid 'Publish a skill the reference validator rejects, as long as agents load it; its entry records the rules it breaks'
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;yank'= {
            cand --index 'The index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)'
            cand --key 'For an OCI index, whose yank state the org signs: the minisign secret key (default: the config directory''s skillpkg.key)'
            cand --undo 'Un-yank the version'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;promote'= {
            cand --to 'The channel to move it to'
            cand --index 'The index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)'
            cand --key 'The org''s minisign secret key (default: the config directory''s skillpkg.key)'
            cand --replacement 'With --to deprecated: what to use instead (org/name or org/name@requirement), named in the warning installs print'
            cand --expires 'Until when the record counts for new installs: an RFC 3339 time (2027-01-31T00:00:00Z) or a span from now (30d, 12h). Past it, projects take no new version of the package from the index until the org promotes it anew; what skills.lock pins still installs'
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;mirror'= {
            cand --index 'The org''s index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)'
            cand --org 'The org to publish under (org/name)'
            cand --version 'The version to mirror skills that have no metadata.version at (semver, say a date: 2026.11.26); without it they are refused. Skills with a metadata.version keep theirs'
            cand --key 'The org''s minisign secret key (default: the config directory''s skillpkg.key)'
            cand --update 'Also mirror anew every source the org''s packages in the index were mirrored from (a new upstream commit lands as a new draft)'
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;index'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
            cand init 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org''s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index''s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)'
            cand policy 'Sign an org''s policy.toml with one of its keys and put it, with its signature, at the index''s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;index;init'= {
            cand --org 'An organisation whose signing key to register'
            cand --key 'The org''s minisign public key: a `.pub` file or its base64 line'
            cand --identity 'The index''s identity, which its channel records and policy are signed for: its canonical URL as projects reach it (default: the URL or namespace given, or a folder''s file:// URL). Set once; an index keeps it'
            cand --git 'Create a git repository holding the index'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;index;policy'= {
            cand --key 'The org''s minisign secret key (default: the config directory''s skillpkg.key)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;index;help'= {
            cand init 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org''s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index''s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)'
            cand policy 'Sign an org''s policy.toml with one of its keys and put it, with its signature, at the index''s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;index;help;init'= {
        }
        &'skillpkg;index;help;policy'= {
        }
        &'skillpkg;index;help;help'= {
        }
        &'skillpkg;exec'= {
            cand -m 'The model: anthropic:<model>, openai:<model> or scripted:<file>'
            cand --model 'The model: anthropic:<model>, openai:<model> or scripted:<file>'
            cand --base-url 'Another server speaking the model''s API (Ollama, vLLM, a proxy, a mock)'
            cand --allow-tool 'Approve this tool (`shell`, `write_file`, `run_script`, `Bash(git:*)`, …)'
            cand --deny-tool 'Refuse this tool, whatever else allows it'
            cand --max-turns 'Most model turns'
            cand --max-tool-calls 'Most tool calls'
            cand --max-tokens 'Most tokens, input and output together'
            cand --timeout 'Seconds a script or shell command may run'
            cand --catalog-budget 'The catalog''s budget in characters (default: 2% of the model''s context)'
            cand --sandbox 'What scripts and shell commands may write [default: workspace-write, or SKILLPKG_SANDBOX, or [agent] sandbox]'
            cand --pass-env 'Pass this environment variable to scripts and shell commands (repeatable)'
            cand --read 'Let scripts and shell commands read this folder, which the sandbox hides otherwise (repeatable; credential files in it stay hidden)'
            cand --allow-write 'Let scripts, shell commands and the model write this .git folder or this agent''s or editor''s configuration (.claude/settings.json, .vscode/, .envrc, …) in the workspace (repeatable)'
            cand --mcp-skills 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)'
            cand --no-stream 'Wait for each whole answer instead of streaming it'
            cand --dry-run 'Print the system prompt, the tool schemas and a token estimate; call no model'
            cand --json 'Print the result as JSON on stdout'
            cand -y 'Approve every tool call that is not denied'
            cand --yes 'Approve every tool call that is not denied'
            cand --restrict-tools 'Make an active skill''s allowed-tools the only tools available'
            cand --require-sandbox 'Refuse to run when the sandbox cannot be set up on this machine'
            cand --allow-network 'Let scripts and shell commands use the network'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;serve'= {
            cand --project 'The project to serve (default: the one around the current directory)'
            cand --http 'Serve over MCP''s streamable HTTP transport at http://ADDR/mcp instead (a loopback address, such as 127.0.0.1:8765). Every request needs the bearer token: SKILLPKG_MCP_TOKEN, or one generated and printed'
            cand --print-config 'Print the entry this agent''s MCP configuration needs to start the server for the project (claude, cursor, vscode, codex), and serve nothing'
            cand --mcp 'Serve over MCP on stdin and stdout (what agents'' MCP configurations start)'
            cand --listen-any 'With --http, allow an address beyond this machine (the token is still required of every request)'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;eval'= {
            cand -m 'The model for every case (default: each case''s, else exec''s choice)'
            cand --model 'The model for every case (default: each case''s, else exec''s choice)'
            cand --base-url 'Another server speaking the model''s API'
            cand --filter 'Only cases whose name contains this'
            cand -j 'Cases run at once (default: the number of cores)'
            cand --jobs 'Cases run at once (default: the number of cores)'
            cand --baseline 'Also run each case against a baseline, and report the difference'
            cand --timeout 'Seconds a script or shell command may run'
            cand --sandbox 'What scripts and shell commands may write [default: workspace-write, or SKILLPKG_SANDBOX, or [agent] sandbox]'
            cand --pass-env 'Pass this environment variable to scripts and shell commands (repeatable)'
            cand --read 'Let scripts and shell commands read this folder, which the sandbox hides otherwise (repeatable; credential files in it stay hidden)'
            cand --allow-write 'Let scripts, shell commands and the model write this .git folder or this agent''s or editor''s configuration (.claude/settings.json, .vscode/, .envrc, …) in the workspace (repeatable)'
            cand --json 'Print the report as JSON on stdout'
            cand --require-sandbox 'Refuse to run when the sandbox cannot be set up on this machine'
            cand --allow-network 'Let scripts and shell commands use the network'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'skillpkg;completions'= {
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;doctor'= {
            cand --json 'Print JSON on stdout'
            cand -q 'Print only errors'
            cand --quiet 'Print only errors'
            cand -v 'Print more detail'
            cand --verbose 'Print more detail'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'skillpkg;help'= {
            cand init 'Create a skills.toml for a project'
            cand add 'Add packages to skills.toml and install them'
            cand remove 'Remove packages from skills.toml and the project root'
            cand install 'Install what skills.toml asks for, as skills.lock pins it'
            cand import 'Take over skills `npx skills` installed, or folders placed by hand'
            cand update 'Move locked versions to the newest that skills.toml allows'
            cand outdated 'List locked packages that have newer versions'
            cand disable 'Turn skills off without uninstalling them: left out of exec, serve and agents'' folders'
            cand enable 'Turn disabled skills back on'
            cand trust 'Trust another signing key for an org (or swap its keys), or this project''s settings'
            cand grants 'List, approve or revoke the tools skills'' allowed-tools pre-approve'
            cand verify 'Check installed skills against skills.lock'
            cand targets 'List agents'' folders skills are placed in, and what is in them'
            cand export 'Write the locked skills out for other tools: `export plugin OUT`'
            cand sbom 'Print a software bill of materials of the installed skills (CycloneDX or SPDX JSON)'
            cand signature 'Check signatures by hand: `signature verify PATH`'
            cand search 'Search an index''s packages by name and description'
            cand registry 'Name indexes in skills.toml''s [registries]'
            cand cache 'Show or empty the cache'
            cand list 'List every skill of every root, marking shadowed ones'
            cand show 'Show one skill: metadata, location, files and which root won'
            cand prompt 'Print the level-1 catalog an agent sees'
            cand validate 'Check skills against the Agent Skills specification'
            cand scan 'Scan skills for remote code run, secrets sent, hidden instructions'
            cand new 'Create a new skill from a template'
            cand pack 'Validate a skill and write a deterministic `.skill` archive'
            cand keygen 'Create a minisign key pair for signing packages'
            cand publish 'Pack, sign and add a skill to an index'
            cand yank 'Mark a published version as yanked, or not'
            cand promote 'Move a published version to another channel, signed by the org'
            cand mirror 'Copy upstream skills into an org''s index, as drafts'
            cand index 'Manage an index'
            cand exec 'Run an agent over the resolved skills'
            cand serve 'Serve the project''s verified skills to agents over MCP'
            cand eval 'Run eval cases: do the skills trigger and behave as intended?'
            cand completions 'Print a shell completion script'
            cand doctor 'Show the platform, the sandbox, the agents found, skillpkg''s folders and what is missing'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'skillpkg;help;init'= {
        }
        &'skillpkg;help;add'= {
        }
        &'skillpkg;help;remove'= {
        }
        &'skillpkg;help;install'= {
        }
        &'skillpkg;help;import'= {
        }
        &'skillpkg;help;update'= {
        }
        &'skillpkg;help;outdated'= {
        }
        &'skillpkg;help;disable'= {
        }
        &'skillpkg;help;enable'= {
        }
        &'skillpkg;help;trust'= {
            cand key 'Say who may sign a source''s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`'
            cand project 'Trust this project''s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`'
            cand list 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`'
        }
        &'skillpkg;help;trust;key'= {
        }
        &'skillpkg;help;trust;project'= {
        }
        &'skillpkg;help;trust;list'= {
        }
        &'skillpkg;help;grants'= {
            cand list 'List the skills whose allowed-tools ask for tools, and what is approved'
            cand approve 'Approve every tool these skills'' allowed-tools ask for'
            cand revoke 'Withdraw these skills'' approved grants'
        }
        &'skillpkg;help;grants;list'= {
        }
        &'skillpkg;help;grants;approve'= {
        }
        &'skillpkg;help;grants;revoke'= {
        }
        &'skillpkg;help;verify'= {
        }
        &'skillpkg;help;targets'= {
        }
        &'skillpkg;help;export'= {
            cand plugin 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins'
        }
        &'skillpkg;help;export;plugin'= {
        }
        &'skillpkg;help;sbom'= {
        }
        &'skillpkg;help;signature'= {
            cand verify 'Verify a file''s or a skill folder''s signature; exit 0 only when it verifies'
        }
        &'skillpkg;help;signature;verify'= {
        }
        &'skillpkg;help;search'= {
        }
        &'skillpkg;help;registry'= {
            cand add 'Add an index to skills.toml''s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named'
        }
        &'skillpkg;help;registry;add'= {
        }
        &'skillpkg;help;cache'= {
            cand dir 'Print the cache directory'
            cand clean 'Delete everything in the cache; it is rebuilt on demand'
        }
        &'skillpkg;help;cache;dir'= {
        }
        &'skillpkg;help;cache;clean'= {
        }
        &'skillpkg;help;list'= {
        }
        &'skillpkg;help;show'= {
        }
        &'skillpkg;help;prompt'= {
        }
        &'skillpkg;help;validate'= {
        }
        &'skillpkg;help;scan'= {
        }
        &'skillpkg;help;new'= {
        }
        &'skillpkg;help;pack'= {
        }
        &'skillpkg;help;keygen'= {
        }
        &'skillpkg;help;publish'= {
        }
        &'skillpkg;help;yank'= {
        }
        &'skillpkg;help;promote'= {
        }
        &'skillpkg;help;mirror'= {
        }
        &'skillpkg;help;index'= {
            cand init 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org''s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index''s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)'
            cand policy 'Sign an org''s policy.toml with one of its keys and put it, with its signature, at the index''s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use'
        }
        &'skillpkg;help;index;init'= {
        }
        &'skillpkg;help;index;policy'= {
        }
        &'skillpkg;help;exec'= {
        }
        &'skillpkg;help;serve'= {
        }
        &'skillpkg;help;eval'= {
        }
        &'skillpkg;help;completions'= {
        }
        &'skillpkg;help;doctor'= {
        }
        &'skillpkg;help;help'= {
        }
    ]
    $completions[$command]
}
