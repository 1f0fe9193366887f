//! The MCP server (rmcp) over the served skill set: the Skills
//! extension's `skills/list`, `skills/get` and `resources/directory/read`,
//! `resources/list` and `resources/read` for every file, and, for clients
//! without the extension, the tools `list_skills`, `use_skill` and
//! `read_skill_file`. It never runs a skill's scripts and never writes.

use std::sync::{Arc, RwLock};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock as Content,
    GetSkillRequestParams, GetSkillResult, Implementation, ListResourcesResult, ListSkillsResult,
    ListToolsResult, MetaObject, PaginatedRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig, Skill,
    SkillFrontmatter, SkillResource, SkillResources, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::skill_set::{Loader, SCHEME, Served, ServedSkill};
use crate::dirs::Dirs;

/// Skills per `skills/list` page.
const PAGE: usize = 50;
/// Resources per `resources/list` page.
const RESOURCE_PAGE: usize = 500;
/// The most bytes of one file `read_skill_file` returns to a model.
const MAX_TOOL_TEXT: usize = 256 * 1024;

/// The server: the project it serves, and the set as last read.
#[derive(Clone)]
pub(crate) struct SkillServer {
    loader: Loader,
    dirs: Dirs,
    served: Arc<RwLock<Arc<Served>>>,
    /// The warnings said so far: each is said once.
    said: Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
}

impl SkillServer {
    /// A server over the skill set `loader` reads, read now (its
    /// warnings are returned).
    pub(crate) fn new(loader: Loader, dirs: Dirs) -> anyhow::Result<(SkillServer, Vec<String>)> {
        let served = super::skill_set::load(&loader, &dirs, None)?;
        let warnings = served.warnings.clone();
        Ok((
            SkillServer {
                loader,
                dirs,
                served: Arc::new(RwLock::new(Arc::new(served))),
                said: Arc::new(std::sync::Mutex::new(warnings.iter().cloned().collect())),
            },
            warnings,
        ))
    }

    fn current(&self) -> Arc<Served> {
        self.served.read().expect("served lock").clone()
    }

    /// Reads the skill set again (a listing is a point-in-time snapshot),
    /// saying on stderr what is left out.
    fn reload(&self) -> Result<Arc<Served>, ErrorData> {
        let served = Arc::new(self.load(None)?);
        *self.served.write().expect("served lock") = served.clone();
        Ok(served)
    }

    /// Reads the skill `name` again (walking and hashing no other), and
    /// updates it in the set as last read; `None` when it is not served.
    fn reload_one(&self, name: &str) -> Result<Option<ServedSkill>, ErrorData> {
        let one = self.load(Some(name))?.skills.pop();
        let mut served = self.served.write().expect("served lock");
        let mut updated = Served::clone(&served);
        updated.skills.retain(|s| s.name != name);
        if let Some(skill) = &one {
            let at = updated.skills.partition_point(|s| s.name < skill.name);
            updated.skills.insert(at, skill.clone());
        }
        *served = Arc::new(updated);
        Ok(one)
    }

    /// The served set (or the skill `only`) as it is now, saying on stderr
    /// what is left out that was not said before.
    fn load(&self, only: Option<&str>) -> Result<Served, ErrorData> {
        let served = super::skill_set::load(&self.loader, &self.dirs, only)
            .map_err(|e| ErrorData::internal_error(format!("{e:#}"), None))?;
        let new: Vec<String> = {
            let mut said = self.said.lock().expect("said lock");
            served
                .warnings
                .iter()
                .filter(|w| said.insert((*w).clone()))
                .cloned()
                .collect()
        };
        super::log::warnings(&new);
        Ok(served)
    }
}

/// The SEP-2640 entry of `skill`: `uri`, `frontmatter`, `resources`
/// (every file with its digest and size) and `_meta`.
fn entry(skill: &ServedSkill) -> Result<Skill, ErrorData> {
    let frontmatter: SkillFrontmatter = serde_json::from_value(serde_json::Value::Object(
        skill.frontmatter.clone(),
    ))
    .map_err(|e| ErrorData::internal_error(format!("{}: frontmatter: {e}", skill.uri), None))?;
    let resources = skill
        .files
        .iter()
        .map(|f| SkillResource::new(&f.uri, &f.digest, f.size))
        .collect();
    let mut meta = MetaObject::new();
    for (key, value) in &skill.meta {
        meta.insert(key.clone(), value.clone());
    }
    Ok(Skill::new(&skill.uri, frontmatter, SkillResources::Files(resources)).with_meta(meta))
}

/// The page of `items` that `cursor` (an offset, as this server gives
/// them) starts, and the cursor of the next.
fn page<T: Clone>(
    items: &[T],
    cursor: Option<&str>,
    size: usize,
) -> Result<(Vec<T>, Option<String>), ErrorData> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|start| *start <= items.len())
            .ok_or_else(|| ErrorData::invalid_params(format!("invalid cursor {cursor:?}"), None))?,
    };
    let end = (start + size).min(items.len());
    let next = (end < items.len()).then(|| end.to_string());
    Ok((items[start..end].to_vec(), next))
}

/// The MIME type a served file is described with.
fn mime_type(relative: &str) -> &'static str {
    match relative.rsplit('.').next().unwrap_or_default() {
        "md" | "markdown" => "text/markdown",
        "py" => "text/x-python",
        "sh" => "text/x-shellscript",
        "js" | "mjs" => "text/javascript",
        "json" => "application/json",
        "html" | "htm" => "text/html",
        "txt" => "text/plain",
        "pdf" => "application/pdf",
        "png" => "image/png",
        _ => "application/octet-stream",
    }
}

/// Every resource of the set: each skill's files, and its root directory.
fn resources(served: &Served) -> Vec<Resource> {
    let mut all = Vec::new();
    for skill in &served.skills {
        for file in &skill.files {
            // A SKILL.md is named after its skill, as the extension asks.
            let name = match file.relative.as_str() {
                "SKILL.md" => skill.name.as_str(),
                other => other,
            };
            let mut resource = Resource::new(&file.uri, name)
                .with_mime_type(mime_type(&file.relative))
                .with_size(file.size);
            if let Some(description) = skill
                .frontmatter
                .get("description")
                .and_then(|d| d.as_str())
                .filter(|_| file.relative == "SKILL.md")
            {
                resource = resource.with_description(description);
            }

            all.push(resource);
        }
    }
    all
}

/// The bytes of the file served at `uri`, checked against its listed
/// digest: a file changed since the set was read is refused.
fn read_checked(served: &Served, uri: &str) -> Result<Vec<u8>, ErrorData> {
    // -32602, as the Skills extension says resources/read answers an
    // unknown resource.
    let file = served
        .file(uri)
        .ok_or_else(|| ErrorData::invalid_params(format!("no file is served at {uri}"), None))?;
    let bytes = std::fs::read(&file.path)
        .map_err(|e| ErrorData::internal_error(format!("{uri}: {e}"), None))?;
    let digest = format!("sha256:{}", crate::store::hash::sha256_hex(&bytes));
    if digest != file.digest {
        return Err(ErrorData::internal_error(
            format!(
                "{uri} changed since it was listed (listed {}, now {digest}); call skills/get for the current set",
                file.digest
            ),
            None,
        ));
    }
    Ok(bytes)
}

/// The direct children of the directory resource `uri`.
fn directory(served: &Served, uri: &str) -> Option<Vec<Resource>> {
    let name = uri.strip_prefix(SCHEME)?.split('/').next()?;
    let skill = served.skills.iter().find(|s| s.name == name)?;
    let inside = uri
        .strip_prefix(&skill.root_uri())?
        .trim_start_matches('/')
        .to_string();
    let prefix = match inside.is_empty() {
        true => String::new(),
        false => format!("{inside}/"),
    };
    let mut children: Vec<Resource> = Vec::new();
    let mut folders: Vec<String> = Vec::new();
    for file in &skill.files {
        let Some(rest) = file.relative.strip_prefix(&prefix) else {
            continue;
        };
        match rest.split_once('/') {
            None => children.push(
                Resource::new(&file.uri, rest)
                    .with_mime_type(mime_type(rest))
                    .with_size(file.size),
            ),
            Some((folder, _)) if !folders.iter().any(|f| f == folder) => {
                folders.push(folder.to_string());
            }
            Some(_) => {}
        }
    }
    if children.is_empty() && folders.is_empty() {
        return None;
    }
    for folder in folders {
        children.push(
            Resource::new(format!("{}/{prefix}{folder}", skill.root_uri()), &folder)
                .with_mime_type(rmcp::model::DIRECTORY_MIME_TYPE),
        );
    }
    Some(children)
}

/// The fallback tools' definitions.
fn tools() -> Vec<Tool> {
    let schema = |value: serde_json::Value| match value {
        serde_json::Value::Object(map) => Arc::new(map),
        _ => unreachable!("schemas are objects"),
    };
    vec![
        Tool::new(
            "list_skills",
            "List the skills this server serves: name and description of each.",
            schema(serde_json::json!({"type": "object", "properties": {}})),
        ),
        Tool::new(
            "use_skill",
            "Load a skill's instructions (its SKILL.md without frontmatter) and the list of its files.",
            schema(serde_json::json!({
                "type": "object",
                "properties": {"name": {"type": "string", "description": "The skill's name"}},
                "required": ["name"],
            })),
        ),
        Tool::new(
            "read_skill_file",
            "Read one file of a skill, by its path inside the skill (references/GUIDE.md).",
            schema(serde_json::json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The skill's name"},
                    "path": {"type": "string", "description": "The file's path inside the skill"},
                },
                "required": ["name", "path"],
            })),
        ),
    ]
}

/// What a fallback tool answers.
fn call(served: &Served, request: &CallToolRequestParams) -> Result<CallToolResult, ErrorData> {
    let argument = |key: &str| {
        request
            .arguments
            .as_ref()
            .and_then(|a| a.get(key))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    let failed = |text: String| Ok(CallToolResult::error(vec![Content::text(text)]));
    let skill_named = |name: &str| served.skills.iter().find(|s| s.name == name);
    match request.name.as_ref() {
        "list_skills" => {
            let text: String = served
                .skills
                .iter()
                .map(|s| {
                    let description = s
                        .frontmatter
                        .get("description")
                        .and_then(|d| d.as_str())
                        .unwrap_or_default();
                    format!("- {}: {description}\n", s.name)
                })
                .collect();
            Ok(CallToolResult::success(vec![Content::text(text)]))
        }
        "use_skill" => {
            let Some(name) = argument("name") else {
                return failed("use_skill needs a `name`".into());
            };
            let Some(skill) = skill_named(&name) else {
                return failed(format!("no skill named {name:?}; list_skills lists them"));
            };
            let bytes = read_checked(served, &skill.uri)?;
            let text = String::from_utf8_lossy(&bytes);
            let body = crate::skill::document::body_of(&text).unwrap_or(&text);
            let files: Vec<&str> = skill.files.iter().map(|f| f.relative.as_str()).collect();
            Ok(CallToolResult::success(vec![Content::text(format!(
                "{body}\n\n---\nFiles of {name} (read them with read_skill_file): {}",
                files.join(", ")
            ))]))
        }
        "read_skill_file" => {
            let (Some(name), Some(path)) = (argument("name"), argument("path")) else {
                return failed("read_skill_file needs a `name` and a `path`".into());
            };
            let Some(skill) = skill_named(&name) else {
                return failed(format!("no skill named {name:?}; list_skills lists them"));
            };
            let Some(file) = skill.files.iter().find(|f| f.relative == path) else {
                return failed(format!(
                    "{name} has no file {path:?}; use_skill lists its files"
                ));
            };
            let bytes = read_checked(served, &file.uri)?;
            match std::str::from_utf8(&bytes) {
                Ok(text) if text.len() <= MAX_TOOL_TEXT => {
                    Ok(CallToolResult::success(vec![Content::text(text)]))
                }
                Ok(_) => failed(format!("{path} is larger than {MAX_TOOL_TEXT} bytes")),
                Err(_) => failed(format!("{path} is not text")),
            }
        }
        other => Err(ErrorData::invalid_params(
            format!("no tool named {other:?}"),
            None,
        )),
    }
}

impl ServerHandler for SkillServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_tools()
                .enable_skills_with_directory_read()
                .build(),
        )
        .with_server_info(Implementation::new("skillpkg", env!("CARGO_PKG_VERSION")))
        .with_instructions(
            "The skills of this project, as skillpkg resolved and verified them. Each file is a skill:// resource with its sha256; skills/list lists them. Clients without the Skills extension can use the list_skills, use_skill and read_skill_file tools.",
        )
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        // A first page reads the set again: skills added or edited since
        // show up, or are left out, as they are now.
        let served = match cursor {
            None => self.reload()?,
            Some(_) => self.current(),
        };
        let entries = served
            .skills
            .iter()
            .map(entry)
            .collect::<Result<Vec<_>, _>>()?;
        let (items, next) = page(&entries, cursor, PAGE)?;
        let mut result = ListSkillsResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let unknown = || {
            ErrorData::invalid_params(
                format!("{} is no skill this server serves", request.uri),
                None,
            )
        };
        let name = rmcp::model::skill_name_from_uri(&request.uri).ok_or_else(unknown)?;
        let skill = self
            .reload_one(name)?
            .filter(|skill| skill.uri == request.uri)
            .ok_or_else(unknown)?;
        Ok(GetSkillResult::new(entry(&skill)?))
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let served = self.current();
        let children = directory(&served, &request.uri).ok_or_else(|| {
            ErrorData::invalid_params(
                format!("{} is no directory this server serves", request.uri),
                None,
            )
        })?;
        let (items, next) = page(&children, request.cursor.as_deref(), RESOURCE_PAGE)?;
        let mut result = ReadResourceDirectoryResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let served = self.current();
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        let (items, next) = page(&resources(&served), cursor, RESOURCE_PAGE)?;
        let mut result = ListResourcesResult::with_all_items(items);
        result.next_cursor = next;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        use base64::Engine as _;
        let served = self.current();
        let bytes = read_checked(&served, &request.uri)?;
        let relative = served
            .file(&request.uri)
            .map(|f| f.relative.clone())
            .unwrap_or_default();
        let contents = match std::str::from_utf8(&bytes) {
            Ok(text) if !text.contains('\0') => ResourceContents::text(text, &request.uri),
            _ => ResourceContents::blob(
                base64::engine::general_purpose::STANDARD.encode(&bytes),
                &request.uri,
            ),
        }
        .with_mime_type(mime_type(&relative));
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let served = self.current();
        call(&served, &request).map(Into::into)
    }
}
