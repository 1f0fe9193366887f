
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'skillpkg' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'skillpkg'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'skillpkg' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a skills.toml for a project')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add packages to skills.toml and install them')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove packages from skills.toml and the project root')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install what skills.toml asks for, as skills.lock pins it')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Take over skills `npx skills` installed, or folders placed by hand')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Move locked versions to the newest that skills.toml allows')
            [CompletionResult]::new('outdated', 'outdated', [CompletionResultType]::ParameterValue, 'List locked packages that have newer versions')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Turn skills off without uninstalling them: left out of exec, serve and agents'' folders')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Turn disabled skills back on')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust another signing key for an org (or swap its keys), or this project''s settings')
            [CompletionResult]::new('grants', 'grants', [CompletionResultType]::ParameterValue, 'List, approve or revoke the tools skills'' allowed-tools pre-approve')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check installed skills against skills.lock')
            [CompletionResult]::new('targets', 'targets', [CompletionResultType]::ParameterValue, 'List agents'' folders skills are placed in, and what is in them')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the locked skills out for other tools: `export plugin OUT`')
            [CompletionResult]::new('sbom', 'sbom', [CompletionResultType]::ParameterValue, 'Print a software bill of materials of the installed skills (CycloneDX or SPDX JSON)')
            [CompletionResult]::new('signature', 'signature', [CompletionResultType]::ParameterValue, 'Check signatures by hand: `signature verify PATH`')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search an index''s packages by name and description')
            [CompletionResult]::new('registry', 'registry', [CompletionResultType]::ParameterValue, 'Name indexes in skills.toml''s [registries]')
            [CompletionResult]::new('cache', 'cache', [CompletionResultType]::ParameterValue, 'Show or empty the cache')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every skill of every root, marking shadowed ones')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one skill: metadata, location, files and which root won')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Print the level-1 catalog an agent sees')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check skills against the Agent Skills specification')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Scan skills for remote code run, secrets sent, hidden instructions')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a new skill from a template')
            [CompletionResult]::new('pack', 'pack', [CompletionResultType]::ParameterValue, 'Validate a skill and write a deterministic `.skill` archive')
            [CompletionResult]::new('keygen', 'keygen', [CompletionResultType]::ParameterValue, 'Create a minisign key pair for signing packages')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Pack, sign and add a skill to an index')
            [CompletionResult]::new('yank', 'yank', [CompletionResultType]::ParameterValue, 'Mark a published version as yanked, or not')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Move a published version to another channel, signed by the org')
            [CompletionResult]::new('mirror', 'mirror', [CompletionResultType]::ParameterValue, 'Copy upstream skills into an org''s index, as drafts')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Manage an index')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run an agent over the resolved skills')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the project''s verified skills to agents over MCP')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Run eval cases: do the skills trigger and behave as intended?')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Show the platform, the sandbox, the agents found, skillpkg''s folders and what is missing')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;init' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;add' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'The registry (a name under [registries]) to take them from')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Take versions from this channel and those above it (recorded in skills.toml as `channel`): testing or draft versions are seen only by projects that ask for them')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Install the skill in this folder (pinned by content hash), or each skill of the plugin it holds (plugin.json, .claude-plugin/, .codex-plugin/)')
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'Install the skill from this git repository (pinned by commit), whatever form its URL has (it is not probed or rewritten)')
            [CompletionResult]::new('--well-known', '--well-known', [CompletionResultType]::ParameterName, 'Install skills a site publishes in its agent-skills index (/.well-known/agent-skills/index.json, the Agent Skills discovery RFC), or listed by the index at this URL (pinned by digest)')
            [CompletionResult]::new('--rev', '--rev', [CompletionResultType]::ParameterName, 'Of a repository: the branch, tag or commit (default: the remote''s HEAD)')
            [CompletionResult]::new('--subdir', '--subdir', [CompletionResultType]::ParameterName, 'Of a repository: the skill''s folder inside it (default: every skill the repository holds)')
            [CompletionResult]::new('--signed-by', '--signed-by', [CompletionResultType]::ParameterName, 'Of a repository: install only a commit signed by this signer (repeatable): an OpenSSH public key (`ssh-ed25519 AAAA…`, or a .pub file holding it), gpg:FINGERPRINT, or a gitsign signer as sigstore:IDENTITY,ISSUER (sigstore-regexp:PATTERN,ISSUER). Recorded in skills.toml as `signed-by`, the signer in skills.lock; every install checks it')
            [CompletionResult]::new('--trusted-root', '--trusted-root', [CompletionResultType]::ParameterName, 'With --signed-by sigstore:…: the trusted_root.json (a file in the project) gitsign certificates must chain to (default: Sigstore''s public-good root). Recorded in skills.toml as `trusted-root`')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Of a repository, a site or an OCI collection: add only the skills with this name (repeatable; globs such as ''pdf*'')')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Let this source take over NAME, which skills.toml takes from another source (repeatable)')
            [CompletionResult]::new('--link-mode', '--link-mode', [CompletionResultType]::ParameterName, 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)')
            [CompletionResult]::new('--insecure-registry', '--insecure-registry', [CompletionResultType]::ParameterName, 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Of a repository, a site or an OCI artifact: list its skills, and add nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace managed skills even if they were edited locally')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Accept unsigned packages from remote indexes')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only the cache and local indexes: fetch nothing')
            [CompletionResult]::new('--require-valid', '--require-valid', [CompletionResultType]::ParameterName, 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)')
            [CompletionResult]::new('--approve-grants', '--approve-grants', [CompletionResultType]::ParameterName, 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--no-scan', '--no-scan', [CompletionResultType]::ParameterName, 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;remove' {
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Remove managed skills even if they were edited locally')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only the cache and local indexes: fetch nothing (for the skills that stay, should one be missing)')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Accept the unsigned packages from remote indexes that stay (they are checked again, as every install checks what the lock pins)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;install' {
            [CompletionResult]::new('--link-mode', '--link-mode', [CompletionResultType]::ParameterName, 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)')
            [CompletionResult]::new('--insecure-registry', '--insecure-registry', [CompletionResultType]::ParameterName, 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Fail if skills.lock would change')
            [CompletionResult]::new('--frozen', '--frozen', [CompletionResultType]::ParameterName, '--locked and --offline together: exactly the lock, from this machine alone')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace managed skills even if they were edited locally')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Accept unsigned packages from remote indexes')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only the cache and local indexes: fetch nothing')
            [CompletionResult]::new('--require-valid', '--require-valid', [CompletionResultType]::ParameterName, 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)')
            [CompletionResult]::new('--approve-grants', '--approve-grants', [CompletionResultType]::ParameterName, 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--no-scan', '--no-scan', [CompletionResultType]::ParameterName, 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Take over the skill folders in DIR that no lock names (such as .claude/skills), instead of reading skills-lock.json. Lists them; --adopt takes them over')
            [CompletionResult]::new('--link-mode', '--link-mode', [CompletionResultType]::ParameterName, 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)')
            [CompletionResult]::new('--insecure-registry', '--insecure-registry', [CompletionResultType]::ParameterName, 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large')
            [CompletionResult]::new('--adopt', '--adopt', [CompletionResultType]::ParameterName, 'With --from: move each folder to the project''s skills/ folder, install it from there as it is, and link it back where it was')
            [CompletionResult]::new('--allow-outside', '--allow-outside', [CompletionResultType]::ParameterName, 'Also take the skills whose local source skills-lock.json places outside the project (read them first: a cloned project''s lock may point anywhere)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace managed skills even if they were edited locally')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Accept unsigned packages from remote indexes')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only the cache and local indexes: fetch nothing')
            [CompletionResult]::new('--require-valid', '--require-valid', [CompletionResultType]::ParameterName, 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)')
            [CompletionResult]::new('--approve-grants', '--approve-grants', [CompletionResultType]::ParameterName, 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--no-scan', '--no-scan', [CompletionResultType]::ParameterName, 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;update' {
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Take versions from this channel and those above it, for packages whose entry in skills.toml names no channel (default: published)')
            [CompletionResult]::new('--link-mode', '--link-mode', [CompletionResultType]::ParameterName, 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache''s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)')
            [CompletionResult]::new('--insecure-registry', '--insecure-registry', [CompletionResultType]::ParameterName, 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Only say what would change')
            [CompletionResult]::new('--allow-signer-change', '--allow-signer-change', [CompletionResultType]::ParameterName, 'Accept a git skill''s new commit signed by another of the signers its `signed-by` names than the locked commit was')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace managed skills even if they were edited locally')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Accept unsigned packages from remote indexes')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only the cache and local indexes: fetch nothing')
            [CompletionResult]::new('--require-valid', '--require-valid', [CompletionResultType]::ParameterName, 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)')
            [CompletionResult]::new('--approve-grants', '--approve-grants', [CompletionResultType]::ParameterName, 'Approve the tools every new or changed skill''s allowed-tools asks to pre-approve, without asking')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project''s')
            [CompletionResult]::new('--no-scan', '--no-scan', [CompletionResultType]::ParameterName, 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;outdated' {
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Look for versions in this channel and those above it, for packages whose entry in skills.toml names no channel (default: published)')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Also fetch, verify and scan each update `update` would make, and say what the new version newly does: hosts it reaches, credential files and secrets it reads, commands, scripts, grants it asks for, a new signer or owner. Nothing is installed, and skills.toml and skills.lock stay as they are (the cache keeps what was fetched)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;disable' {
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;enable' {
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Work on the user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Work on the user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;trust' {
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'A minisign public key of the org (a `.pub` file or its base64 line), added to the keys skills.lock pins for it')
            [CompletionResult]::new('--oms-root', '--oms-root', [CompletionResultType]::ParameterName, 'A PEM file of OMS root certificates: skills from SOURCE must carry a `skill.oms.sig` whose certificate chains to one of them')
            [CompletionResult]::new('--sigstore-identity', '--sigstore-identity', [CompletionResultType]::ParameterName, 'The Sigstore identity (certificate email or workflow URI, exactly) that must sign SOURCE''s packages')
            [CompletionResult]::new('--sigstore-identity-regexp', '--sigstore-identity-regexp', [CompletionResultType]::ParameterName, 'A regex the whole Sigstore identity must match, instead of --sigstore-identity')
            [CompletionResult]::new('--sigstore-issuer', '--sigstore-issuer', [CompletionResultType]::ParameterName, 'The OIDC issuer that must vouch for the Sigstore identity')
            [CompletionResult]::new('--trusted-root', '--trusted-root', [CompletionResultType]::ParameterName, 'The trusted_root.json Sigstore signatures are checked against (default: Sigstore''s public-good root)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'list')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'json')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'project')
            [CompletionResult]::new('--revoke', '--revoke', [CompletionResultType]::ParameterName, 'revoke')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Make this the only signer SOURCE accepts, and drop what skills.lock pinned for its skills, so that the next install records the new signer (the source changed who signs)')
            [CompletionResult]::new('--remove', '--remove', [CompletionResultType]::ParameterName, 'Remove SOURCE''s signer policy')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Say who may sign a source''s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`')
            [CompletionResult]::new('project', 'project', [CompletionResultType]::ParameterValue, 'Trust this project''s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;trust;key' {
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'A minisign public key of the org (a `.pub` file or its base64 line), added to the keys skills.lock pins for it')
            [CompletionResult]::new('--oms-root', '--oms-root', [CompletionResultType]::ParameterName, 'A PEM file of OMS root certificates: skills from SOURCE must carry a `skill.oms.sig` whose certificate chains to one of them')
            [CompletionResult]::new('--sigstore-identity', '--sigstore-identity', [CompletionResultType]::ParameterName, 'The Sigstore identity (certificate email or workflow URI, exactly) that must sign SOURCE''s packages')
            [CompletionResult]::new('--sigstore-identity-regexp', '--sigstore-identity-regexp', [CompletionResultType]::ParameterName, 'A regex the whole Sigstore identity must match, instead of --sigstore-identity')
            [CompletionResult]::new('--sigstore-issuer', '--sigstore-issuer', [CompletionResultType]::ParameterName, 'The OIDC issuer that must vouch for the Sigstore identity')
            [CompletionResult]::new('--trusted-root', '--trusted-root', [CompletionResultType]::ParameterName, 'The trusted_root.json Sigstore signatures are checked against (default: Sigstore''s public-good root)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Make this the only signer SOURCE accepts, and drop what skills.lock pinned for its skills, so that the next install records the new signer (the source changed who signs)')
            [CompletionResult]::new('--remove', '--remove', [CompletionResultType]::ParameterName, 'Remove SOURCE''s signer policy')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;trust;project' {
            [CompletionResult]::new('--revoke', '--revoke', [CompletionResultType]::ParameterName, 'Stop trusting it')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;trust;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;trust;help' {
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Say who may sign a source''s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`')
            [CompletionResult]::new('project', 'project', [CompletionResultType]::ParameterValue, 'Trust this project''s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;trust;help;key' {
            break
        }
        'skillpkg;trust;help;project' {
            break
        }
        'skillpkg;trust;help;list' {
            break
        }
        'skillpkg;trust;help;help' {
            break
        }
        'skillpkg;grants' {
            [CompletionResult]::new('--mcp-skills', '--mcp-skills', [CompletionResultType]::ParameterName, 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the skills whose allowed-tools ask for tools, and what is approved')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve every tool these skills'' allowed-tools ask for')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Withdraw these skills'' approved grants')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;grants;list' {
            [CompletionResult]::new('--mcp-skills', '--mcp-skills', [CompletionResultType]::ParameterName, 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;grants;approve' {
            [CompletionResult]::new('--mcp-skills', '--mcp-skills', [CompletionResultType]::ParameterName, 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;grants;revoke' {
            [CompletionResult]::new('--mcp-skills', '--mcp-skills', [CompletionResultType]::ParameterName, 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;grants;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the skills whose allowed-tools ask for tools, and what is approved')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve every tool these skills'' allowed-tools ask for')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Withdraw these skills'' approved grants')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;grants;help;list' {
            break
        }
        'skillpkg;grants;help;approve' {
            break
        }
        'skillpkg;grants;help;revoke' {
            break
        }
        'skillpkg;grants;help;help' {
            break
        }
        'skillpkg;verify' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Restore the links and copies in agents'' folders that drifted, from the installed skills (which must match skills.lock)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;targets' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;export' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;export;plugin' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The plugin''s name: 1 to 64 of a-z, 0-9, ''-'' and ''.''')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'The plugin''s version (semver recommended)')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'The plugin''s description')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace OUT when it is a plugin folder written before (it holds a plugin.json)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Export the user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'Export the user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;export;help' {
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;export;help;plugin' {
            break
        }
        'skillpkg;export;help;help' {
            break
        }
        'skillpkg;sbom' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The document format')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global skills instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;signature' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Verify a file''s or a skill folder''s signature; exit 0 only when it verifies')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;signature;verify' {
            [CompletionResult]::new('--minisign-key', '--minisign-key', [CompletionResultType]::ParameterName, 'A minisign public key (its base64 line, or a .pub file) that may have signed it (repeatable)')
            [CompletionResult]::new('--signature', '--signature', [CompletionResultType]::ParameterName, 'The minisign signature (default: PATH.minisig), or a folder''s OMS signature (default: PATH/skill.oms.sig)')
            [CompletionResult]::new('--bundle', '--bundle', [CompletionResultType]::ParameterName, 'A Sigstore bundle (JSON) to verify instead of a minisign signature')
            [CompletionResult]::new('--identity', '--identity', [CompletionResultType]::ParameterName, 'The identity that must have signed the bundle: the certificate''s email or workflow URI, exactly')
            [CompletionResult]::new('--identity-regexp', '--identity-regexp', [CompletionResultType]::ParameterName, 'A regex that must match the whole signing identity, instead of --identity')
            [CompletionResult]::new('--issuer', '--issuer', [CompletionResultType]::ParameterName, 'The OIDC issuer that must have vouched for the identity')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The public key (PEM) of a keyed Sigstore bundle, instead of an identity, or of a folder''s OMS signature made with a bare key')
            [CompletionResult]::new('--trusted-root', '--trusted-root', [CompletionResultType]::ParameterName, 'The trusted_root.json to verify the bundle (or a folder''s keyless OMS signature) against (default: the public-good Sigstore root embedded in skillpkg)')
            [CompletionResult]::new('--oms-root', '--oms-root', [CompletionResultType]::ParameterName, 'The root certificates (PEM, one or more) a folder''s OMS signature must chain to')
            [CompletionResult]::new('--staging', '--staging', [CompletionResultType]::ParameterName, 'Verify against Sigstore''s staging instance instead')
            [CompletionResult]::new('--ignore-unsigned-files', '--ignore-unsigned-files', [CompletionResultType]::ParameterName, 'Check only the files a folder''s OMS signature lists: a file it does not list is let be (a listed one must still be there)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the verdict as JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;signature;help' {
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Verify a file''s or a skill folder''s signature; exit 0 only when it verifies')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;signature;help;verify' {
            break
        }
        'skillpkg;signature;help;help' {
            break
        }
        'skillpkg;search' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'A registry named under [registries] (default: the project''s default, else the built-in index)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;registry' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an index to skills.toml''s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;registry;add' {
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'The index is a git repository: record https://… and ssh://… URLs as git+https://… and git+ssh://…')
            [CompletionResult]::new('--default', '--default', [CompletionResultType]::ParameterName, 'Also make it the default registry (`default` under [registries])')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'The user''s global manifest instead of the project''s')
            [CompletionResult]::new('--global', '--global', [CompletionResultType]::ParameterName, 'The user''s global manifest instead of the project''s')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;registry;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an index to skills.toml''s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;registry;help;add' {
            break
        }
        'skillpkg;registry;help;help' {
            break
        }
        'skillpkg;cache' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('dir', 'dir', [CompletionResultType]::ParameterValue, 'Print the cache directory')
            [CompletionResult]::new('clean', 'clean', [CompletionResultType]::ParameterValue, 'Delete everything in the cache; it is rebuilt on demand')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;cache;dir' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;cache;clean' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;cache;help' {
            [CompletionResult]::new('dir', 'dir', [CompletionResultType]::ParameterValue, 'Print the cache directory')
            [CompletionResult]::new('clean', 'clean', [CompletionResultType]::ParameterValue, 'Delete everything in the cache; it is rebuilt on demand')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;cache;help;dir' {
            break
        }
        'skillpkg;cache;help;clean' {
            break
        }
        'skillpkg;cache;help;help' {
            break
        }
        'skillpkg;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;show' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;prompt' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--task', '--task', [CompletionResultType]::ParameterName, 'Rank the skills for this task and fit the catalog `exec` would build for it into its budget (XML only)')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'The catalog''s budget in characters, with --task (default: exec''s, 2% of the configured model''s context window)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;validate' {
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Also warn about things that are valid but unhelpful to agents')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;scan' {
            [CompletionResult]::new('--waive', '--waive', [CompletionResultType]::ParameterName, 'Record in skills.lock that this rule''s finding is accepted (with --skill, --file and --reason), instead of scanning')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'The skill a waiver is for: an installed skill, or a package to install')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The file a waiver is for, relative to the skill')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why the finding is accepted; reviewers read it in the lock''s diff')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'The file''s digest, for a package not installed yet (a refused install prints it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('--sarif', '--sarif', [CompletionResultType]::ParameterName, 'Print SARIF 2.1.0 on stdout, for code-scanning dashboards')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;new' {
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The directory to create it in (default: the current directory)')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'The description (what it does and when to use it)')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'The description (what it does and when to use it)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;pack' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write the archive (default: `<name>-<version>.skill` here)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the archive (default: `<name>-<version>.skill` here)')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large')
            [CompletionResult]::new('--layer', '--layer', [CompletionResultType]::ParameterName, 'Write the layer an OCI index holds (`<name>-<version>.tar.gz`: the archive''s files as a deterministic tar+gzip) instead, to make a Sigstore bundle over for `publish --index oci://…`')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;keygen' {
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Directory for `skillpkg.pub` and `skillpkg.key` (default: the config directory)')
            [CompletionResult]::new('--no-password', '--no-password', [CompletionResultType]::ParameterName, 'Do not encrypt the secret key with a password')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;publish' {
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'The index: a folder, a git repository path, a git URL (git+https://…, file://…), or an OCI registry namespace (oci://HOST/NAMESPACE)')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'The organisation to publish under (org/name)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The minisign secret key file that signs the archive (default: the config directory''s skillpkg.key, which `skillpkg keygen` writes)')
            [CompletionResult]::new('--sigstore-bundle', '--sigstore-bundle', [CompletionResultType]::ParameterName, 'A Sigstore bundle over the archive, made in CI over the `.skill` that `pack` wrote (cosign sign-blob writes one): recorded in the index entry beside the minisign signature, or instead of it when no --key is given and there is no default key')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'The version (default: the skill''s metadata.version); with --collection, the collection''s')
            [CompletionResult]::new('--collection', '--collection', [CompletionResultType]::ParameterName, 'Also publish the skills as the collection NAME (org/NAME, an OCI image index of their artifacts, at --version); each skill is published at its own metadata.version, or kept where that version is there with the same content')
            [CompletionResult]::new('--dependencies', '--dependencies', [CompletionResultType]::ParameterName, 'Dependencies, comma-separated org/name@req (default: metadata.dependencies)')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'The channel the version starts in, signed with --key: draft and testing versions are seen only by projects that ask for them (`skillpkg promote` moves them on)')
            [CompletionResult]::new('--max-skill-size', '--max-skill-size', [CompletionResultType]::ParameterName, 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large')
            [CompletionResult]::new('--allow-invalid', '--allow-invalid', [CompletionResultType]::ParameterName, 'Publish a skill the reference validator rejects, as long as agents load it; its entry records the rules it breaks')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;yank' {
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'The index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'For an OCI index, whose yank state the org signs: the minisign secret key (default: the config directory''s skillpkg.key)')
            [CompletionResult]::new('--undo', '--undo', [CompletionResultType]::ParameterName, 'Un-yank the version')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;promote' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The channel to move it to')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'The index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The org''s minisign secret key (default: the config directory''s skillpkg.key)')
            [CompletionResult]::new('--replacement', '--replacement', [CompletionResultType]::ParameterName, 'With --to deprecated: what to use instead (org/name or org/name@requirement), named in the warning installs print')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Until when the record counts for new installs: an RFC 3339 time (2027-01-31T00:00:00Z) or a span from now (30d, 12h). Past it, projects take no new version of the package from the index until the org promotes it anew; what skills.lock pins still installs')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;mirror' {
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'The org''s index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)')
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'The org to publish under (org/name)')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'The version to mirror skills that have no metadata.version at (semver, say a date: 2026.11.26); without it they are refused. Skills with a metadata.version keep theirs')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The org''s minisign secret key (default: the config directory''s skillpkg.key)')
            [CompletionResult]::new('--update', '--update', [CompletionResultType]::ParameterName, 'Also mirror anew every source the org''s packages in the index were mirrored from (a new upstream commit lands as a new draft)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;index' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org''s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index''s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'Sign an org''s policy.toml with one of its keys and put it, with its signature, at the index''s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;index;init' {
            [CompletionResult]::new('--org', '--org', [CompletionResultType]::ParameterName, 'An organisation whose signing key to register')
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The org''s minisign public key: a `.pub` file or its base64 line')
            [CompletionResult]::new('--identity', '--identity', [CompletionResultType]::ParameterName, 'The index''s identity, which its channel records and policy are signed for: its canonical URL as projects reach it (default: the URL or namespace given, or a folder''s file:// URL). Set once; an index keeps it')
            [CompletionResult]::new('--git', '--git', [CompletionResultType]::ParameterName, 'Create a git repository holding the index')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;index;policy' {
            [CompletionResult]::new('--key', '--key', [CompletionResultType]::ParameterName, 'The org''s minisign secret key (default: the config directory''s skillpkg.key)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;index;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org''s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index''s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'Sign an org''s policy.toml with one of its keys and put it, with its signature, at the index''s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;index;help;init' {
            break
        }
        'skillpkg;index;help;policy' {
            break
        }
        'skillpkg;index;help;help' {
            break
        }
        'skillpkg;exec' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model: anthropic:<model>, openai:<model> or scripted:<file>')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model: anthropic:<model>, openai:<model> or scripted:<file>')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Another server speaking the model''s API (Ollama, vLLM, a proxy, a mock)')
            [CompletionResult]::new('--allow-tool', '--allow-tool', [CompletionResultType]::ParameterName, 'Approve this tool (`shell`, `write_file`, `run_script`, `Bash(git:*)`, …)')
            [CompletionResult]::new('--deny-tool', '--deny-tool', [CompletionResultType]::ParameterName, 'Refuse this tool, whatever else allows it')
            [CompletionResult]::new('--max-turns', '--max-turns', [CompletionResultType]::ParameterName, 'Most model turns')
            [CompletionResult]::new('--max-tool-calls', '--max-tool-calls', [CompletionResultType]::ParameterName, 'Most tool calls')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Most tokens, input and output together')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds a script or shell command may run')
            [CompletionResult]::new('--catalog-budget', '--catalog-budget', [CompletionResultType]::ParameterName, 'The catalog''s budget in characters (default: 2% of the model''s context)')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'What scripts and shell commands may write [default: workspace-write, or SKILLPKG_SANDBOX, or [agent] sandbox]')
            [CompletionResult]::new('--pass-env', '--pass-env', [CompletionResultType]::ParameterName, 'Pass this environment variable to scripts and shell commands (repeatable)')
            [CompletionResult]::new('--read', '--read', [CompletionResultType]::ParameterName, 'Let scripts and shell commands read this folder, which the sandbox hides otherwise (repeatable; credential files in it stay hidden)')
            [CompletionResult]::new('--allow-write', '--allow-write', [CompletionResultType]::ParameterName, 'Let scripts, shell commands and the model write this .git folder or this agent''s or editor''s configuration (.claude/settings.json, .vscode/, .envrc, …) in the workspace (repeatable)')
            [CompletionResult]::new('--mcp-skills', '--mcp-skills', [CompletionResultType]::ParameterName, 'Add the skills this MCP server serves: a command (started with the sandbox''s environment only) or an http(s) URL (repeatable)')
            [CompletionResult]::new('--no-stream', '--no-stream', [CompletionResultType]::ParameterName, 'Wait for each whole answer instead of streaming it')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the system prompt, the tool schemas and a token estimate; call no model')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the result as JSON on stdout')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Approve every tool call that is not denied')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Approve every tool call that is not denied')
            [CompletionResult]::new('--restrict-tools', '--restrict-tools', [CompletionResultType]::ParameterName, 'Make an active skill''s allowed-tools the only tools available')
            [CompletionResult]::new('--require-sandbox', '--require-sandbox', [CompletionResultType]::ParameterName, 'Refuse to run when the sandbox cannot be set up on this machine')
            [CompletionResult]::new('--allow-network', '--allow-network', [CompletionResultType]::ParameterName, 'Let scripts and shell commands use the network')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;serve' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project to serve (default: the one around the current directory)')
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve over MCP''s streamable HTTP transport at http://ADDR/mcp instead (a loopback address, such as 127.0.0.1:8765). Every request needs the bearer token: SKILLPKG_MCP_TOKEN, or one generated and printed')
            [CompletionResult]::new('--print-config', '--print-config', [CompletionResultType]::ParameterName, 'Print the entry this agent''s MCP configuration needs to start the server for the project (claude, cursor, vscode, codex), and serve nothing')
            [CompletionResult]::new('--mcp', '--mcp', [CompletionResultType]::ParameterName, 'Serve over MCP on stdin and stdout (what agents'' MCP configurations start)')
            [CompletionResult]::new('--listen-any', '--listen-any', [CompletionResultType]::ParameterName, 'With --http, allow an address beyond this machine (the token is still required of every request)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;eval' {
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'The model for every case (default: each case''s, else exec''s choice)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model for every case (default: each case''s, else exec''s choice)')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Another server speaking the model''s API')
            [CompletionResult]::new('--filter', '--filter', [CompletionResultType]::ParameterName, 'Only cases whose name contains this')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Cases run at once (default: the number of cores)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Cases run at once (default: the number of cores)')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Also run each case against a baseline, and report the difference')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds a script or shell command may run')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'What scripts and shell commands may write [default: workspace-write, or SKILLPKG_SANDBOX, or [agent] sandbox]')
            [CompletionResult]::new('--pass-env', '--pass-env', [CompletionResultType]::ParameterName, 'Pass this environment variable to scripts and shell commands (repeatable)')
            [CompletionResult]::new('--read', '--read', [CompletionResultType]::ParameterName, 'Let scripts and shell commands read this folder, which the sandbox hides otherwise (repeatable; credential files in it stay hidden)')
            [CompletionResult]::new('--allow-write', '--allow-write', [CompletionResultType]::ParameterName, 'Let scripts, shell commands and the model write this .git folder or this agent''s or editor''s configuration (.claude/settings.json, .vscode/, .envrc, …) in the workspace (repeatable)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the report as JSON on stdout')
            [CompletionResult]::new('--require-sandbox', '--require-sandbox', [CompletionResultType]::ParameterName, 'Refuse to run when the sandbox cannot be set up on this machine')
            [CompletionResult]::new('--allow-network', '--allow-network', [CompletionResultType]::ParameterName, 'Let scripts and shell commands use the network')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'skillpkg;completions' {
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;doctor' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON on stdout')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'skillpkg;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create a skills.toml for a project')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add packages to skills.toml and install them')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove packages from skills.toml and the project root')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install what skills.toml asks for, as skills.lock pins it')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Take over skills `npx skills` installed, or folders placed by hand')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Move locked versions to the newest that skills.toml allows')
            [CompletionResult]::new('outdated', 'outdated', [CompletionResultType]::ParameterValue, 'List locked packages that have newer versions')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Turn skills off without uninstalling them: left out of exec, serve and agents'' folders')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Turn disabled skills back on')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust another signing key for an org (or swap its keys), or this project''s settings')
            [CompletionResult]::new('grants', 'grants', [CompletionResultType]::ParameterValue, 'List, approve or revoke the tools skills'' allowed-tools pre-approve')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check installed skills against skills.lock')
            [CompletionResult]::new('targets', 'targets', [CompletionResultType]::ParameterValue, 'List agents'' folders skills are placed in, and what is in them')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write the locked skills out for other tools: `export plugin OUT`')
            [CompletionResult]::new('sbom', 'sbom', [CompletionResultType]::ParameterValue, 'Print a software bill of materials of the installed skills (CycloneDX or SPDX JSON)')
            [CompletionResult]::new('signature', 'signature', [CompletionResultType]::ParameterValue, 'Check signatures by hand: `signature verify PATH`')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search an index''s packages by name and description')
            [CompletionResult]::new('registry', 'registry', [CompletionResultType]::ParameterValue, 'Name indexes in skills.toml''s [registries]')
            [CompletionResult]::new('cache', 'cache', [CompletionResultType]::ParameterValue, 'Show or empty the cache')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every skill of every root, marking shadowed ones')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one skill: metadata, location, files and which root won')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Print the level-1 catalog an agent sees')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check skills against the Agent Skills specification')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Scan skills for remote code run, secrets sent, hidden instructions')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a new skill from a template')
            [CompletionResult]::new('pack', 'pack', [CompletionResultType]::ParameterValue, 'Validate a skill and write a deterministic `.skill` archive')
            [CompletionResult]::new('keygen', 'keygen', [CompletionResultType]::ParameterValue, 'Create a minisign key pair for signing packages')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Pack, sign and add a skill to an index')
            [CompletionResult]::new('yank', 'yank', [CompletionResultType]::ParameterValue, 'Mark a published version as yanked, or not')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'Move a published version to another channel, signed by the org')
            [CompletionResult]::new('mirror', 'mirror', [CompletionResultType]::ParameterValue, 'Copy upstream skills into an org''s index, as drafts')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Manage an index')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run an agent over the resolved skills')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the project''s verified skills to agents over MCP')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Run eval cases: do the skills trigger and behave as intended?')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Show the platform, the sandbox, the agents found, skillpkg''s folders and what is missing')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'skillpkg;help;init' {
            break
        }
        'skillpkg;help;add' {
            break
        }
        'skillpkg;help;remove' {
            break
        }
        'skillpkg;help;install' {
            break
        }
        'skillpkg;help;import' {
            break
        }
        'skillpkg;help;update' {
            break
        }
        'skillpkg;help;outdated' {
            break
        }
        'skillpkg;help;disable' {
            break
        }
        'skillpkg;help;enable' {
            break
        }
        'skillpkg;help;trust' {
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Say who may sign a source''s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`')
            [CompletionResult]::new('project', 'project', [CompletionResultType]::ParameterValue, 'Trust this project''s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`')
            break
        }
        'skillpkg;help;trust;key' {
            break
        }
        'skillpkg;help;trust;project' {
            break
        }
        'skillpkg;help;trust;list' {
            break
        }
        'skillpkg;help;grants' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the skills whose allowed-tools ask for tools, and what is approved')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve every tool these skills'' allowed-tools ask for')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Withdraw these skills'' approved grants')
            break
        }
        'skillpkg;help;grants;list' {
            break
        }
        'skillpkg;help;grants;approve' {
            break
        }
        'skillpkg;help;grants;revoke' {
            break
        }
        'skillpkg;help;verify' {
            break
        }
        'skillpkg;help;targets' {
            break
        }
        'skillpkg;help;export' {
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins')
            break
        }
        'skillpkg;help;export;plugin' {
            break
        }
        'skillpkg;help;sbom' {
            break
        }
        'skillpkg;help;signature' {
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Verify a file''s or a skill folder''s signature; exit 0 only when it verifies')
            break
        }
        'skillpkg;help;signature;verify' {
            break
        }
        'skillpkg;help;search' {
            break
        }
        'skillpkg;help;registry' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an index to skills.toml''s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named')
            break
        }
        'skillpkg;help;registry;add' {
            break
        }
        'skillpkg;help;cache' {
            [CompletionResult]::new('dir', 'dir', [CompletionResultType]::ParameterValue, 'Print the cache directory')
            [CompletionResult]::new('clean', 'clean', [CompletionResultType]::ParameterValue, 'Delete everything in the cache; it is rebuilt on demand')
            break
        }
        'skillpkg;help;cache;dir' {
            break
        }
        'skillpkg;help;cache;clean' {
            break
        }
        'skillpkg;help;list' {
            break
        }
        'skillpkg;help;show' {
            break
        }
        'skillpkg;help;prompt' {
            break
        }
        'skillpkg;help;validate' {
            break
        }
        'skillpkg;help;scan' {
            break
        }
        'skillpkg;help;new' {
            break
        }
        'skillpkg;help;pack' {
            break
        }
        'skillpkg;help;keygen' {
            break
        }
        'skillpkg;help;publish' {
            break
        }
        'skillpkg;help;yank' {
            break
        }
        'skillpkg;help;promote' {
            break
        }
        'skillpkg;help;mirror' {
            break
        }
        'skillpkg;help;index' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org''s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index''s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'Sign an org''s policy.toml with one of its keys and put it, with its signature, at the index''s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use')
            break
        }
        'skillpkg;help;index;init' {
            break
        }
        'skillpkg;help;index;policy' {
            break
        }
        'skillpkg;help;exec' {
            break
        }
        'skillpkg;help;serve' {
            break
        }
        'skillpkg;help;eval' {
            break
        }
        'skillpkg;help;completions' {
            break
        }
        'skillpkg;help;doctor' {
            break
        }
        'skillpkg;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
