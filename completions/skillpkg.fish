# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_skillpkg_global_optspecs
    string join \n q/quiet v/verbose h/help V/version
end

function __fish_skillpkg_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_skillpkg_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_skillpkg_using_subcommand
    set -l cmd (__fish_skillpkg_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c skillpkg -n "__fish_skillpkg_needs_command" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -s V -l version -d 'Print version'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "init" -d 'Create a skills.toml for a project'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "add" -d 'Add packages to skills.toml and install them'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "remove" -d 'Remove packages from skills.toml and the project root'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "install" -d 'Install what skills.toml asks for, as skills.lock pins it'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "import" -d 'Take over skills `npx skills` installed, or folders placed by hand'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "update" -d 'Move locked versions to the newest that skills.toml allows'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "outdated" -d 'List locked packages that have newer versions'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "disable" -d 'Turn skills off without uninstalling them: left out of exec, serve and agents\' folders'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "enable" -d 'Turn disabled skills back on'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "trust" -d 'Trust another signing key for an org (or swap its keys), or this project\'s settings'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "grants" -d 'List, approve or revoke the tools skills\' allowed-tools pre-approve'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "verify" -d 'Check installed skills against skills.lock'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "targets" -d 'List agents\' folders skills are placed in, and what is in them'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "export" -d 'Write the locked skills out for other tools: `export plugin OUT`'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "sbom" -d 'Print a software bill of materials of the installed skills (CycloneDX or SPDX JSON)'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "signature" -d 'Check signatures by hand: `signature verify PATH`'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "search" -d 'Search an index\'s packages by name and description'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "registry" -d 'Name indexes in skills.toml\'s [registries]'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "cache" -d 'Show or empty the cache'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "list" -d 'List every skill of every root, marking shadowed ones'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "show" -d 'Show one skill: metadata, location, files and which root won'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "prompt" -d 'Print the level-1 catalog an agent sees'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "validate" -d 'Check skills against the Agent Skills specification'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "scan" -d 'Scan skills for remote code run, secrets sent, hidden instructions'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "new" -d 'Create a new skill from a template'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "pack" -d 'Validate a skill and write a deterministic `.skill` archive'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "keygen" -d 'Create a minisign key pair for signing packages'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "publish" -d 'Pack, sign and add a skill to an index'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "yank" -d 'Mark a published version as yanked, or not'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "promote" -d 'Move a published version to another channel, signed by the org'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "mirror" -d 'Copy upstream skills into an org\'s index, as drafts'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "index" -d 'Manage an index'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "exec" -d 'Run an agent over the resolved skills'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "serve" -d 'Serve the project\'s verified skills to agents over MCP'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "eval" -d 'Run eval cases: do the skills trigger and behave as intended?'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "doctor" -d 'Show the platform, the sandbox, the agents found, skillpkg\'s folders and what is missing'
complete -c skillpkg -n "__fish_skillpkg_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand init" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand init" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand init" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l registry -d 'The registry (a name under [registries]) to take them from' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l channel -d 'Take versions from this channel and those above it (recorded in skills.toml as `channel`): testing or draft versions are seen only by projects that ask for them' -r -f -a "draft\t'Not for users yet: what `mirror` lands, or a publish that asked'
testing\t'For projects that ask for it'
published\t'What resolution takes by default'
deprecated\t'Still installable, with a warning naming its replacement'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l path -d 'Install the skill in this folder (pinned by content hash), or each skill of the plugin it holds (plugin.json, .claude-plugin/, .codex-plugin/)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l git -d 'Install the skill from this git repository (pinned by commit), whatever form its URL has (it is not probed or rewritten)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l well-known -d 'Install skills a site publishes in its agent-skills index (/.well-known/agent-skills/index.json, the Agent Skills discovery RFC), or listed by the index at this URL (pinned by digest)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l rev -d 'Of a repository: the branch, tag or commit (default: the remote\'s HEAD)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l subdir -d 'Of a repository: the skill\'s folder inside it (default: every skill the repository holds)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l signed-by -d 'Of a repository: install only a commit signed by this signer (repeatable): an OpenSSH public key (`ssh-ed25519 AAAA…`, or a .pub file holding it), gpg:FINGERPRINT, or a gitsign signer as sigstore:IDENTITY,ISSUER (sigstore-regexp:PATTERN,ISSUER). Recorded in skills.toml as `signed-by`, the signer in skills.lock; every install checks it' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l trusted-root -d 'With --signed-by sigstore:…: the trusted_root.json (a file in the project) gitsign certificates must chain to (default: Sigstore\'s public-good root). Recorded in skills.toml as `trusted-root`' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l skill -d 'Of a repository, a site or an OCI collection: add only the skills with this name (repeatable; globs such as \'pdf*\')' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l replace -d 'Let this source take over NAME, which skills.toml takes from another source (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l link-mode -d 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache\'s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)' -r -f -a "hardlink\t''
copy\t''"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l insecure-registry -d 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l max-skill-size -d 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l list -d 'Of a repository, a site or an OCI artifact: list its skills, and add nothing'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l force -d 'Replace managed skills even if they were edited locally'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l allow-unsigned -d 'Accept unsigned packages from remote indexes'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l offline -d 'Use only the cache and local indexes: fetch nothing'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l require-valid -d 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l approve-grants -d 'Approve the tools every new or changed skill\'s allowed-tools asks to pre-approve, without asking'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -s g -l global -d 'Work on the user\'s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -l no-scan -d 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -l max-skill-size -d 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -l force -d 'Remove managed skills even if they were edited locally'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -l offline -d 'Use only the cache and local indexes: fetch nothing (for the skills that stay, should one be missing)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -l allow-unsigned -d 'Accept the unsigned packages from remote indexes that stay (they are checked again, as every install checks what the lock pins)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -s g -l global -d 'Work on the user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand remove" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l link-mode -d 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache\'s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)' -r -f -a "hardlink\t''
copy\t''"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l insecure-registry -d 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l max-skill-size -d 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l locked -d 'Fail if skills.lock would change'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l frozen -d '--locked and --offline together: exactly the lock, from this machine alone'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l force -d 'Replace managed skills even if they were edited locally'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l allow-unsigned -d 'Accept unsigned packages from remote indexes'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l offline -d 'Use only the cache and local indexes: fetch nothing'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l require-valid -d 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l approve-grants -d 'Approve the tools every new or changed skill\'s allowed-tools asks to pre-approve, without asking'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -s g -l global -d 'Work on the user\'s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -l no-scan -d 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand install" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l from -d 'Take over the skill folders in DIR that no lock names (such as .claude/skills), instead of reading skills-lock.json. Lists them; --adopt takes them over' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l link-mode -d 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache\'s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)' -r -f -a "hardlink\t''
copy\t''"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l insecure-registry -d 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l max-skill-size -d 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l adopt -d 'With --from: move each folder to the project\'s skills/ folder, install it from there as it is, and link it back where it was'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l allow-outside -d 'Also take the skills whose local source skills-lock.json places outside the project (read them first: a cloned project\'s lock may point anywhere)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l force -d 'Replace managed skills even if they were edited locally'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l allow-unsigned -d 'Accept unsigned packages from remote indexes'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l offline -d 'Use only the cache and local indexes: fetch nothing'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l require-valid -d 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l approve-grants -d 'Approve the tools every new or changed skill\'s allowed-tools asks to pre-approve, without asking'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -s g -l global -d 'Work on the user\'s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -l no-scan -d 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand import" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l channel -d 'Take versions from this channel and those above it, for packages whose entry in skills.toml names no channel (default: published)' -r -f -a "draft\t'Not for users yet: what `mirror` lands, or a publish that asked'
testing\t'For projects that ask for it'
published\t'What resolution takes by default'
deprecated\t'Still installable, with a warning naming its replacement'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l link-mode -d 'How skills are put in place from the cache: `copy` (the default) clones the verified files copy-on-write where the file system can, else copies them; `hardlink` links the cache\'s read-only files (an edit forced through a link reaches the cache and other projects until the tree hash catches it)' -r -f -a "hardlink\t''
copy\t''"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l insecure-registry -d 'Speak to this OCI registry (HOST or HOST:PORT) over plain HTTP (repeatable); registries on this machine always are, others use HTTPS' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l max-skill-size -d 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l dry-run -d 'Only say what would change'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l allow-signer-change -d 'Accept a git skill\'s new commit signed by another of the signers its `signed-by` names than the locked commit was'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l force -d 'Replace managed skills even if they were edited locally'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l allow-unsigned -d 'Accept unsigned packages from remote indexes'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l offline -d 'Use only the cache and local indexes: fetch nothing'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l require-valid -d 'Refuse skills the reference validator rejects (by default they install as agents load them, with a warning)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l approve-grants -d 'Approve the tools every new or changed skill\'s allowed-tools asks to pre-approve, without asking'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -s g -l global -d 'Work on the user\'s global skills (a manifest and lock under the data directory, installing into the user root) instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -l no-scan -d 'Put skills in place without scanning them first (each such entry of skills.lock says `scan = "skipped"`, for reviewers to see)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand outdated" -l channel -d 'Look for versions in this channel and those above it, for packages whose entry in skills.toml names no channel (default: published)' -r -f -a "draft\t'Not for users yet: what `mirror` lands, or a publish that asked'
testing\t'For projects that ask for it'
published\t'What resolution takes by default'
deprecated\t'Still installable, with a warning naming its replacement'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand outdated" -l diff -d 'Also fetch, verify and scan each update `update` would make, and say what the new version newly does: hosts it reaches, credential files and secrets it reads, commands, scripts, grants it asks for, a new signer or owner. Nothing is installed, and skills.toml and skills.lock stay as they are (the cache keeps what was fetched)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand outdated" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand outdated" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand outdated" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand outdated" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand outdated" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand disable" -s g -l global -d 'Work on the user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand disable" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand disable" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand disable" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand enable" -s g -l global -d 'Work on the user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand enable" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand enable" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand enable" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l key -d 'A minisign public key of the org (a `.pub` file or its base64 line), added to the keys skills.lock pins for it' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l oms-root -d 'A PEM file of OMS root certificates: skills from SOURCE must carry a `skill.oms.sig` whose certificate chains to one of them' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l sigstore-identity -d 'The Sigstore identity (certificate email or workflow URI, exactly) that must sign SOURCE\'s packages' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l sigstore-identity-regexp -d 'A regex the whole Sigstore identity must match, instead of --sigstore-identity' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l sigstore-issuer -d 'The OIDC issuer that must vouch for the Sigstore identity' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l trusted-root -d 'The trusted_root.json Sigstore signatures are checked against (default: Sigstore\'s public-good root)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l list
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l json
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l project
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l revoke
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l replace -d 'Make this the only signer SOURCE accepts, and drop what skills.lock pinned for its skills, so that the next install records the new signer (the source changed who signs)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -l remove -d 'Remove SOURCE\'s signer policy'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -a "key" -d 'Say who may sign a source\'s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -a "project" -d 'Trust this project\'s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -a "list" -d 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and not __fish_seen_subcommand_from key project list help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l key -d 'A minisign public key of the org (a `.pub` file or its base64 line), added to the keys skills.lock pins for it' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l oms-root -d 'A PEM file of OMS root certificates: skills from SOURCE must carry a `skill.oms.sig` whose certificate chains to one of them' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l sigstore-identity -d 'The Sigstore identity (certificate email or workflow URI, exactly) that must sign SOURCE\'s packages' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l sigstore-identity-regexp -d 'A regex the whole Sigstore identity must match, instead of --sigstore-identity' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l sigstore-issuer -d 'The OIDC issuer that must vouch for the Sigstore identity' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l trusted-root -d 'The trusted_root.json Sigstore signatures are checked against (default: Sigstore\'s public-good root)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l replace -d 'Make this the only signer SOURCE accepts, and drop what skills.lock pinned for its skills, so that the next install records the new signer (the source changed who signs)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -l remove -d 'Remove SOURCE\'s signer policy'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from key" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from project" -l revoke -d 'Stop trusting it'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from project" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from project" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from project" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from project" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from list" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from list" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from help" -f -a "key" -d 'Say who may sign a source\'s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from help" -f -a "project" -d 'Trust this project\'s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand trust; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -l mcp-skills -d 'Add the skills this MCP server serves: a command (started with the sandbox\'s environment only) or an http(s) URL (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -f -a "list" -d 'List the skills whose allowed-tools ask for tools, and what is approved'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -f -a "approve" -d 'Approve every tool these skills\' allowed-tools ask for'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -f -a "revoke" -d 'Withdraw these skills\' approved grants'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and not __fish_seen_subcommand_from list approve revoke help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from list" -l mcp-skills -d 'Add the skills this MCP server serves: a command (started with the sandbox\'s environment only) or an http(s) URL (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from list" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from approve" -l mcp-skills -d 'Add the skills this MCP server serves: a command (started with the sandbox\'s environment only) or an http(s) URL (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from approve" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from approve" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from approve" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from revoke" -l mcp-skills -d 'Add the skills this MCP server serves: a command (started with the sandbox\'s environment only) or an http(s) URL (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from revoke" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from revoke" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the skills whose allowed-tools ask for tools, and what is approved'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from help" -f -a "approve" -d 'Approve every tool these skills\' allowed-tools ask for'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Withdraw these skills\' approved grants'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand grants; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand verify" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand verify" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand verify" -l fix -d 'Restore the links and copies in agents\' folders that drifted, from the installed skills (which must match skills.lock)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand verify" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand verify" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand verify" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand targets" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand targets" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand targets" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand targets" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand targets" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and not __fish_seen_subcommand_from plugin help" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and not __fish_seen_subcommand_from plugin help" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and not __fish_seen_subcommand_from plugin help" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and not __fish_seen_subcommand_from plugin help" -f -a "plugin" -d 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and not __fish_seen_subcommand_from plugin help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -l name -d 'The plugin\'s name: 1 to 64 of a-z, 0-9, \'-\' and \'.\'' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -l version -d 'The plugin\'s version (semver recommended)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -l description -d 'The plugin\'s description' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -l force -d 'Replace OUT when it is a plugin folder written before (it holds a plugin.json)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -s g -l global -d 'Export the user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from plugin" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from help" -f -a "plugin" -d 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand export; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand sbom" -l format -d 'The document format' -r -f -a "cyclonedx\t'CycloneDX 1.6 JSON'
spdx\t'SPDX 2.3 JSON'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand sbom" -s g -l global -d 'The user\'s global skills instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand sbom" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand sbom" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand sbom" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and not __fish_seen_subcommand_from verify help" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and not __fish_seen_subcommand_from verify help" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and not __fish_seen_subcommand_from verify help" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and not __fish_seen_subcommand_from verify help" -f -a "verify" -d 'Verify a file\'s or a skill folder\'s signature; exit 0 only when it verifies'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and not __fish_seen_subcommand_from verify help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l minisign-key -d 'A minisign public key (its base64 line, or a .pub file) that may have signed it (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l signature -d 'The minisign signature (default: PATH.minisig), or a folder\'s OMS signature (default: PATH/skill.oms.sig)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l bundle -d 'A Sigstore bundle (JSON) to verify instead of a minisign signature' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l identity -d 'The identity that must have signed the bundle: the certificate\'s email or workflow URI, exactly' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l identity-regexp -d 'A regex that must match the whole signing identity, instead of --identity' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l issuer -d 'The OIDC issuer that must have vouched for the identity' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l key -d 'The public key (PEM) of a keyed Sigstore bundle, instead of an identity, or of a folder\'s OMS signature made with a bare key' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l trusted-root -d 'The trusted_root.json to verify the bundle (or a folder\'s keyless OMS signature) against (default: the public-good Sigstore root embedded in skillpkg)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l oms-root -d 'The root certificates (PEM, one or more) a folder\'s OMS signature must chain to' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l staging -d 'Verify against Sigstore\'s staging instance instead'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l ignore-unsigned-files -d 'Check only the files a folder\'s OMS signature lists: a file it does not list is let be (a listed one must still be there)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -l json -d 'Print the verdict as JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Verify a file\'s or a skill folder\'s signature; exit 0 only when it verifies'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand signature; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand search" -l registry -d 'A registry named under [registries] (default: the project\'s default, else the built-in index)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand search" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand search" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand search" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand search" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and not __fish_seen_subcommand_from add help" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and not __fish_seen_subcommand_from add help" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and not __fish_seen_subcommand_from add help" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and not __fish_seen_subcommand_from add help" -f -a "add" -d 'Add an index to skills.toml\'s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and not __fish_seen_subcommand_from add help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from add" -l git -d 'The index is a git repository: record https://… and ssh://… URLs as git+https://… and git+ssh://…'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from add" -l default -d 'Also make it the default registry (`default` under [registries])'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from add" -s g -l global -d 'The user\'s global manifest instead of the project\'s'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add an index to skills.toml\'s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and not __fish_seen_subcommand_from dir clean help" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and not __fish_seen_subcommand_from dir clean help" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and not __fish_seen_subcommand_from dir clean help" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and not __fish_seen_subcommand_from dir clean help" -f -a "dir" -d 'Print the cache directory'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and not __fish_seen_subcommand_from dir clean help" -f -a "clean" -d 'Delete everything in the cache; it is rebuilt on demand'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and not __fish_seen_subcommand_from dir clean help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from dir" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from dir" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from dir" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from clean" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from clean" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from clean" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "dir" -d 'Print the cache directory'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "clean" -d 'Delete everything in the cache; it is rebuilt on demand'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand list" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand list" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand list" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand list" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand show" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand show" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand show" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand show" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand prompt" -l format -d 'Output format' -r -f -a "xml\t'The reference `<available_skills>` block'
markdown\t'A Markdown list'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand prompt" -l task -d 'Rank the skills for this task and fit the catalog `exec` would build for it into its budget (XML only)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand prompt" -l budget -d 'The catalog\'s budget in characters, with --task (default: exec\'s, 2% of the configured model\'s context window)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand prompt" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand prompt" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand prompt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand validate" -l strict -d 'Also warn about things that are valid but unhelpful to agents'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand validate" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand validate" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand validate" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand validate" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -l waive -d 'Record in skills.lock that this rule\'s finding is accepted (with --skill, --file and --reason), instead of scanning' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -l skill -d 'The skill a waiver is for: an installed skill, or a package to install' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -l file -d 'The file a waiver is for, relative to the skill' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -l reason -d 'Why the finding is accepted; reviewers read it in the lock\'s diff' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -l digest -d 'The file\'s digest, for a package not installed yet (a refused install prints it)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -l sarif -d 'Print SARIF 2.1.0 on stdout, for code-scanning dashboards'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand scan" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand new" -l path -d 'The directory to create it in (default: the current directory)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand new" -s d -l description -d 'The description (what it does and when to use it)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand new" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand new" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand new" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand pack" -s o -l output -d 'Where to write the archive (default: `<name>-<version>.skill` here)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand pack" -l max-skill-size -d 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand pack" -l layer -d 'Write the layer an OCI index holds (`<name>-<version>.tar.gz`: the archive\'s files as a deterministic tar+gzip) instead, to make a Sigstore bundle over for `publish --index oci://…`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand pack" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand pack" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand pack" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand pack" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand keygen" -l out -d 'Directory for `skillpkg.pub` and `skillpkg.key` (default: the config directory)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand keygen" -l no-password -d 'Do not encrypt the secret key with a password'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand keygen" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand keygen" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand keygen" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l index -d 'The index: a folder, a git repository path, a git URL (git+https://…, file://…), or an OCI registry namespace (oci://HOST/NAMESPACE)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l org -d 'The organisation to publish under (org/name)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l key -d 'The minisign secret key file that signs the archive (default: the config directory\'s skillpkg.key, which `skillpkg keygen` writes)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l sigstore-bundle -d 'A Sigstore bundle over the archive, made in CI over the `.skill` that `pack` wrote (cosign sign-blob writes one): recorded in the index entry beside the minisign signature, or instead of it when no --key is given and there is no default key' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l version -d 'The version (default: the skill\'s metadata.version); with --collection, the collection\'s' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l collection -d 'Also publish the skills as the collection NAME (org/NAME, an OCI image index of their artifacts, at --version); each skill is published at its own metadata.version, or kept where that version is there with the same content' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l dependencies -d 'Dependencies, comma-separated org/name@req (default: metadata.dependencies)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l channel -d 'The channel the version starts in, signed with --key: draft and testing versions are seen only by projects that ask for them (`skillpkg promote` moves them on)' -r -f -a "draft\t'Not for users yet: what `mirror` lands, or a publish that asked'
testing\t'For projects that ask for it'
published\t'What resolution takes by default'
deprecated\t'Still installable, with a warning naming its replacement'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l max-skill-size -d 'Accept skills whose files hold up to SIZE unpacked (default 256MiB; say 512MiB or 1GB). Give it to pack and publish, and to every install of a skill that large' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l allow-invalid -d 'Publish a skill the reference validator rejects, as long as agents load it; its entry records the rules it breaks'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand publish" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand yank" -l index -d 'The index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand yank" -l key -d 'For an OCI index, whose yank state the org signs: the minisign secret key (default: the config directory\'s skillpkg.key)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand yank" -l undo -d 'Un-yank the version'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand yank" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand yank" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand yank" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -l to -d 'The channel to move it to' -r -f -a "draft\t'Not for users yet: what `mirror` lands, or a publish that asked'
testing\t'For projects that ask for it'
published\t'What resolution takes by default'
deprecated\t'Still installable, with a warning naming its replacement'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -l index -d 'The index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -l key -d 'The org\'s minisign secret key (default: the config directory\'s skillpkg.key)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -l replacement -d 'With --to deprecated: what to use instead (org/name or org/name@requirement), named in the warning installs print' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -l expires -d 'Until when the record counts for new installs: an RFC 3339 time (2027-01-31T00:00:00Z) or a span from now (30d, 12h). Past it, projects take no new version of the package from the index until the org promotes it anew; what skills.lock pins still installs' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand promote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -l index -d 'The org\'s index: a folder, a git repository path, a git URL, or an OCI registry namespace (oci://HOST/NAMESPACE)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -l org -d 'The org to publish under (org/name)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -l version -d 'The version to mirror skills that have no metadata.version at (semver, say a date: 2026.11.26); without it they are refused. Skills with a metadata.version keep theirs' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -l key -d 'The org\'s minisign secret key (default: the config directory\'s skillpkg.key)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -l update -d 'Also mirror anew every source the org\'s packages in the index were mirrored from (a new upstream commit lands as a new draft)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand mirror" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and not __fish_seen_subcommand_from init policy help" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and not __fish_seen_subcommand_from init policy help" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and not __fish_seen_subcommand_from init policy help" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and not __fish_seen_subcommand_from init policy help" -f -a "init" -d 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org\'s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index\'s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and not __fish_seen_subcommand_from init policy help" -f -a "policy" -d 'Sign an org\'s policy.toml with one of its keys and put it, with its signature, at the index\'s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and not __fish_seen_subcommand_from init policy help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from init" -l org -d 'An organisation whose signing key to register' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from init" -l key -d 'The org\'s minisign public key: a `.pub` file or its base64 line' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from init" -l identity -d 'The index\'s identity, which its channel records and policy are signed for: its canonical URL as projects reach it (default: the URL or namespace given, or a folder\'s file:// URL). Set once; an index keeps it' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from init" -l git -d 'Create a git repository holding the index'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from init" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from policy" -l key -d 'The org\'s minisign secret key (default: the config directory\'s skillpkg.key)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from policy" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from policy" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from policy" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "init" -d 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org\'s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index\'s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "policy" -d 'Sign an org\'s policy.toml with one of its keys and put it, with its signature, at the index\'s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand index; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -s m -l model -d 'The model: anthropic:<model>, openai:<model> or scripted:<file>' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l base-url -d 'Another server speaking the model\'s API (Ollama, vLLM, a proxy, a mock)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l allow-tool -d 'Approve this tool (`shell`, `write_file`, `run_script`, `Bash(git:*)`, …)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l deny-tool -d 'Refuse this tool, whatever else allows it' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l max-turns -d 'Most model turns' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l max-tool-calls -d 'Most tool calls' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l max-tokens -d 'Most tokens, input and output together' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l timeout -d 'Seconds a script or shell command may run' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l catalog-budget -d 'The catalog\'s budget in characters (default: 2% of the model\'s context)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l sandbox -d 'What scripts and shell commands may write [default: workspace-write, or SKILLPKG_SANDBOX, or [agent] sandbox]' -r -f -a "workspace-write\t'The workspace (less .git/, .skillpkg/, skills, skills.toml and skills.lock) and a private TMPDIR'
read-only\t'Only a private TMPDIR'
off\t'No sandbox: the command runs with skillpkg\'s rights and its environment minus secrets'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l pass-env -d 'Pass this environment variable to scripts and shell commands (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l read -d 'Let scripts and shell commands read this folder, which the sandbox hides otherwise (repeatable; credential files in it stay hidden)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l allow-write -d 'Let scripts, shell commands and the model write this .git folder or this agent\'s or editor\'s configuration (.claude/settings.json, .vscode/, .envrc, …) in the workspace (repeatable)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l mcp-skills -d 'Add the skills this MCP server serves: a command (started with the sandbox\'s environment only) or an http(s) URL (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l no-stream -d 'Wait for each whole answer instead of streaming it'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l dry-run -d 'Print the system prompt, the tool schemas and a token estimate; call no model'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l json -d 'Print the result as JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -s y -l yes -d 'Approve every tool call that is not denied'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l restrict-tools -d 'Make an active skill\'s allowed-tools the only tools available'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l require-sandbox -d 'Refuse to run when the sandbox cannot be set up on this machine'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -l allow-network -d 'Let scripts and shell commands use the network'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand exec" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -l project -d 'The project to serve (default: the one around the current directory)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -l http -d 'Serve over MCP\'s streamable HTTP transport at http://ADDR/mcp instead (a loopback address, such as 127.0.0.1:8765). Every request needs the bearer token: SKILLPKG_MCP_TOKEN, or one generated and printed' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -l print-config -d 'Print the entry this agent\'s MCP configuration needs to start the server for the project (claude, cursor, vscode, codex), and serve nothing' -r -f -a "claude\t''
cursor\t''
vscode\t''
codex\t''"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -l mcp -d 'Serve over MCP on stdin and stdout (what agents\' MCP configurations start)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -l listen-any -d 'With --http, allow an address beyond this machine (the token is still required of every request)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand serve" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -s m -l model -d 'The model for every case (default: each case\'s, else exec\'s choice)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l base-url -d 'Another server speaking the model\'s API' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l filter -d 'Only cases whose name contains this' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -s j -l jobs -d 'Cases run at once (default: the number of cores)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l baseline -d 'Also run each case against a baseline, and report the difference' -r -f -a "none\t'Each case also runs with no skills at all'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l timeout -d 'Seconds a script or shell command may run' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l sandbox -d 'What scripts and shell commands may write [default: workspace-write, or SKILLPKG_SANDBOX, or [agent] sandbox]' -r -f -a "workspace-write\t'The workspace (less .git/, .skillpkg/, skills, skills.toml and skills.lock) and a private TMPDIR'
read-only\t'Only a private TMPDIR'
off\t'No sandbox: the command runs with skillpkg\'s rights and its environment minus secrets'"
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l pass-env -d 'Pass this environment variable to scripts and shell commands (repeatable)' -r
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l read -d 'Let scripts and shell commands read this folder, which the sandbox hides otherwise (repeatable; credential files in it stay hidden)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l allow-write -d 'Let scripts, shell commands and the model write this .git folder or this agent\'s or editor\'s configuration (.claude/settings.json, .vscode/, .envrc, …) in the workspace (repeatable)' -r -F
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l json -d 'Print the report as JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l require-sandbox -d 'Refuse to run when the sandbox cannot be set up on this machine'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -l allow-network -d 'Let scripts and shell commands use the network'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand eval" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand completions" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand completions" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand completions" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand doctor" -l json -d 'Print JSON on stdout'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand doctor" -s q -l quiet -d 'Print only errors'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand doctor" -s v -l verbose -d 'Print more detail'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand doctor" -s h -l help -d 'Print help'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "init" -d 'Create a skills.toml for a project'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "add" -d 'Add packages to skills.toml and install them'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "remove" -d 'Remove packages from skills.toml and the project root'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "install" -d 'Install what skills.toml asks for, as skills.lock pins it'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "import" -d 'Take over skills `npx skills` installed, or folders placed by hand'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "update" -d 'Move locked versions to the newest that skills.toml allows'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "outdated" -d 'List locked packages that have newer versions'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "disable" -d 'Turn skills off without uninstalling them: left out of exec, serve and agents\' folders'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "enable" -d 'Turn disabled skills back on'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "trust" -d 'Trust another signing key for an org (or swap its keys), or this project\'s settings'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "grants" -d 'List, approve or revoke the tools skills\' allowed-tools pre-approve'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "verify" -d 'Check installed skills against skills.lock'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "targets" -d 'List agents\' folders skills are placed in, and what is in them'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "export" -d 'Write the locked skills out for other tools: `export plugin OUT`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "sbom" -d 'Print a software bill of materials of the installed skills (CycloneDX or SPDX JSON)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "signature" -d 'Check signatures by hand: `signature verify PATH`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "search" -d 'Search an index\'s packages by name and description'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "registry" -d 'Name indexes in skills.toml\'s [registries]'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "cache" -d 'Show or empty the cache'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "list" -d 'List every skill of every root, marking shadowed ones'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "show" -d 'Show one skill: metadata, location, files and which root won'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "prompt" -d 'Print the level-1 catalog an agent sees'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "validate" -d 'Check skills against the Agent Skills specification'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "scan" -d 'Scan skills for remote code run, secrets sent, hidden instructions'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "new" -d 'Create a new skill from a template'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "pack" -d 'Validate a skill and write a deterministic `.skill` archive'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "keygen" -d 'Create a minisign key pair for signing packages'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "publish" -d 'Pack, sign and add a skill to an index'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "yank" -d 'Mark a published version as yanked, or not'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "promote" -d 'Move a published version to another channel, signed by the org'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "mirror" -d 'Copy upstream skills into an org\'s index, as drafts'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "index" -d 'Manage an index'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "exec" -d 'Run an agent over the resolved skills'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "serve" -d 'Serve the project\'s verified skills to agents over MCP'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "eval" -d 'Run eval cases: do the skills trigger and behave as intended?'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "completions" -d 'Print a shell completion script'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "doctor" -d 'Show the platform, the sandbox, the agents found, skillpkg\'s folders and what is missing'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and not __fish_seen_subcommand_from init add remove install import update outdated disable enable trust grants verify targets export sbom signature search registry cache list show prompt validate scan new pack keygen publish yank promote mirror index exec serve eval completions doctor help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from trust" -f -a "key" -d 'Say who may sign a source\'s skills: a minisign key for an org (pinned in skills.lock), OMS root certificates or Sigstore identities for an org or any source `add` takes (kept in your config, checked on every install). Also spelt `trust SOURCE --key …`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from trust" -f -a "project" -d 'Trust this project\'s own settings that run code on this machine: its `[agent]` table, the grants its skills.lock records, and the sources its skills.toml names outside the project. Also spelt `trust --project`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from trust" -f -a "list" -d 'List the signer policies: yours, and the keys skills.lock pins. Also spelt `trust --list`'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from grants" -f -a "list" -d 'List the skills whose allowed-tools ask for tools, and what is approved'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from grants" -f -a "approve" -d 'Approve every tool these skills\' allowed-tools ask for'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from grants" -f -a "revoke" -d 'Withdraw these skills\' approved grants'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from export" -f -a "plugin" -d 'Write the locked skills as an Agent Plugin folder (plugin.json and skills/), for agents that load Agent Plugins'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from signature" -f -a "verify" -d 'Verify a file\'s or a skill folder\'s signature; exit 0 only when it verifies'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "add" -d 'Add an index to skills.toml\'s [registries] under NAME, for `skillpkg add org/name --registry NAME`; with --default (and no NAME), the index packages come from when no registry is named'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "dir" -d 'Print the cache directory'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "clean" -d 'Delete everything in the cache; it is rebuilt on demand'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from index" -f -a "init" -d 'Create an index (a folder, or a git repository with --git); with --org and --key, also allow that key to sign the org\'s packages. With --git, an empty bare repository or its URL (what a git host gives you) gets the index\'s first commit, pushed. Run on an existing folder or git index, it also compacts its search listing (or builds it when there is none)'
complete -c skillpkg -n "__fish_skillpkg_using_subcommand help; and __fish_seen_subcommand_from index" -f -a "policy" -d 'Sign an org\'s policy.toml with one of its keys and put it, with its signature, at the index\'s root: projects whose default registry is the index then follow it (allowed sources, required signers, the lowest channel, required channel signatures, unwaivable scanner rules), pinned on first use'
