//! The base (and head) a CI system or hook implies when `--base` is not given: pre-commit's
//! `PRE_COMMIT_FROM_REF`/`TO_REF`, and the GitHub event (`pull_request`, `merge_group`, `push`).

use crate::Fatal;

/// What the environment says to compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CiRange {
    /// Base revision.
    pub base: String,
    /// Head revision, when the environment names one (otherwise the working tree).
    pub head: Option<String>,
    /// Compare against the fork point of base and head (a pull request's base branch moves on).
    pub merge_base: bool,
    /// Where it came from, for messages.
    pub origin: &'static str,
}

/// Reads the environment (`env` looks a variable up); `None` when it implies nothing.
pub fn range(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<CiRange>, Fatal> {
    let var = |k: &str| env(k).filter(|v| !v.is_empty());
    let from = var("PRE_COMMIT_FROM_REF").or_else(|| var("PRE_COMMIT_ORIGIN"));
    let to = var("PRE_COMMIT_TO_REF").or_else(|| var("PRE_COMMIT_SOURCE"));
    if let (Some(from), Some(to)) = (from, to) {
        return Ok(Some(CiRange {
            base: from,
            head: Some(to),
            merge_base: false,
            origin: "PRE_COMMIT_FROM_REF/PRE_COMMIT_TO_REF",
        }));
    }
    if var("GITHUB_ACTIONS").as_deref() != Some("true") {
        return Ok(None);
    }
    let Some(path) = var("GITHUB_EVENT_PATH") else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        Fatal::new(
            format!("cannot read the GitHub event file {path}: {e}"),
            "pass the base explicitly with --base <sha>",
        )
    })?;
    let event: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Fatal::new(
            format!("the GitHub event file {path} is not JSON: {e}"),
            "pass the base explicitly with --base <sha>",
        )
    })?;
    let sha = |v: &serde_json::Value| {
        v.as_str()
            .filter(|s| s.len() >= 7 && s.chars().all(|c| c.is_ascii_hexdigit()))
            .filter(|s| !s.chars().all(|c| c == '0'))
            .map(str::to_string)
    };
    if let Some(base) = sha(&event["pull_request"]["base"]["sha"]) {
        return Ok(Some(CiRange {
            base,
            head: None,
            merge_base: true,
            origin: "the pull_request event (base.sha)",
        }));
    }
    if let Some(base) = sha(&event["merge_group"]["base_sha"]) {
        return Ok(Some(CiRange {
            base,
            head: None,
            merge_base: true,
            origin: "the merge_group event (base_sha)",
        }));
    }
    if let Some(base) = sha(&event["before"]) {
        return Ok(Some(CiRange {
            base,
            head: None,
            merge_base: false,
            origin: "the push event (before)",
        }));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Result<Option<CiRange>, Fatal> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        range(&move |k: &str| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    }

    fn event(json: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().expect("tmp");
        std::fs::write(f.path(), json).expect("write");
        f
    }

    #[test]
    fn pre_commit_refs_win() {
        let r = with(&[("PRE_COMMIT_FROM_REF", "abc"), ("PRE_COMMIT_TO_REF", "def")])
            .expect("ok")
            .expect("some");
        assert_eq!((r.base.as_str(), r.head.as_deref()), ("abc", Some("def")));
        let legacy = with(&[("PRE_COMMIT_ORIGIN", "a"), ("PRE_COMMIT_SOURCE", "b")])
            .expect("ok")
            .expect("some");
        assert_eq!(legacy.base, "a");
    }

    #[test]
    fn github_events() {
        let sha = "1111111111111111111111111111111111111111";
        let pr = event(&format!(
            r#"{{"pull_request":{{"base":{{"sha":"{sha}"}}}}}}"#
        ));
        let p = pr.path().to_str().expect("utf8");
        let r = with(&[("GITHUB_ACTIONS", "true"), ("GITHUB_EVENT_PATH", p)])
            .expect("ok")
            .expect("some");
        assert_eq!(r.base, sha);
        assert!(r.merge_base);
        // Outside Actions the event is ignored.
        assert_eq!(with(&[("GITHUB_EVENT_PATH", p)]).expect("ok"), None);
        // A branch's first push has an all-zero `before`: no base from the event.
        let push = event(r#"{"before":"0000000000000000000000000000000000000000"}"#);
        let p = push.path().to_str().expect("utf8");
        assert_eq!(
            with(&[("GITHUB_ACTIONS", "true"), ("GITHUB_EVENT_PATH", p)]).expect("ok"),
            None
        );
        let bad = event("{");
        let p = bad.path().to_str().expect("utf8");
        assert!(with(&[("GITHUB_ACTIONS", "true"), ("GITHUB_EVENT_PATH", p)]).is_err());
    }
}
