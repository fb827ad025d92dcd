//! The Kubernetes CEL library functions the bundled CRDs use, which the `cel` crate lacks:
//! IP/CIDR (`isIP`, `ip`, `isCIDR`, `cidr`, `.ip()`, `.family()`, `.prefixLength()`), URL
//! (`isURL`, `url`, `.getScheme()`, `.getHost()`, `.getQuery()`), regex `.find()`,
//! `format.dns1123Subdomain().validate()` (and the label formats), `duration().getSeconds()`,
//! and `matches()` with a compiled-pattern cache.
//!
//! Calls in the 830 rules of the bundled CRDs (198 of them transition rules): has 584,
//! matches 260, split 104, size 87, all 46, exists 39, endsWith 34, startsWith 26, exists_one 18,
//! int 18, isCIDR 18, cidr 18, contains 17, isURL 16, hasValue 13, orValue 12 (with `.?`
//! optional selection), url 11, ip 10, family 10, dns1123Subdomain/validate 8, find 8,
//! prefixLength 8, getScheme 7, map 4, filter 4, getQuery 4, isIP 3, duration/getSeconds 2,
//! lowerAscii 2. The `cel` crate covers the standard ones, the optionals and (with its strings
//! extension) `split`/`lowerAscii`; this module adds the rest.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, OnceLock};

use cel::extractors::This;
use cel::objects::{Opaque, OptionalValue};
use cel::{Context, ExecutionError, Value};

/// An IP address value (`ip('10.0.0.1')`).
#[derive(Debug, PartialEq, Eq)]
struct Ip(IpAddr);

/// A CIDR value (`cidr('10.0.0.0/8')`).
#[derive(Debug, PartialEq, Eq)]
struct Cidr(IpAddr, u8);

/// A URL value (`url('https://x')`).
#[derive(Debug, PartialEq, Eq)]
struct Url {
    scheme: String,
    host: String,
    path: String,
    query: String,
}

/// A named format of the `format` library (`format.dns1123Subdomain()`).
#[derive(Debug, PartialEq, Eq)]
struct Format(&'static str);

/// A duration value, in nanoseconds.
#[derive(Debug, PartialEq, Eq)]
struct Duration(i128);

macro_rules! opaque {
    ($($t:ty => $name:literal),*) => {$(
        impl Opaque for $t {
            fn runtime_type_name(&self) -> &str {
                $name
            }
        }
    )*};
}
opaque!(Ip => "net.IP", Cidr => "net.CIDR", Url => "url.URL", Format => "format.Format",
    Duration => "k8s.Duration");

fn err(function: &str, message: impl Into<String>) -> ExecutionError {
    ExecutionError::function_error(function, message.into())
}

fn opaque<T: Opaque>(v: T) -> Value {
    Value::Opaque(Arc::new(v))
}

fn downcast<'a, T: Opaque>(v: &'a Value, function: &str) -> Result<&'a T, ExecutionError> {
    match v {
        Value::Opaque(o) => o
            .downcast_ref::<T>()
            .ok_or_else(|| err(function, "no such overload")),
        _ => Err(err(function, "no such overload")),
    }
}

/// Parses an IP address as Kubernetes does (no zones, no IPv4-mapped IPv6).
pub fn parse_ip(s: &str) -> Option<IpAddr> {
    if s.contains('%') {
        return None;
    }
    let ip: IpAddr = s.parse().ok()?;
    if let IpAddr::V6(v6) = ip {
        if v6.to_ipv4_mapped().is_some() {
            return None;
        }
    }
    Some(ip)
}

fn parse_cidr(s: &str) -> Option<(IpAddr, u8)> {
    let (ip, prefix) = s.split_once('/')?;
    let ip = parse_ip(ip)?;
    if prefix.is_empty() || prefix.len() > 3 || !prefix.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if prefix.len() > 1 && prefix.starts_with('0') {
        return None;
    }
    let prefix: u8 = prefix.parse().ok()?;
    let max = if ip.is_ipv4() { 32 } else { 128 };
    (prefix <= max).then_some((ip, prefix))
}

fn parse_url(s: &str) -> Option<Url> {
    if s.is_empty() || s.chars().any(|c| c.is_control() || c == ' ') {
        return None;
    }
    let (scheme, rest) = match s.split_once(':') {
        Some((scheme, rest))
            if scheme
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) =>
        {
            (scheme.to_string(), rest)
        }
        // Kubernetes accepts an absolute path without a scheme.
        _ if s.starts_with('/') => (String::new(), s),
        _ => return None,
    };
    let rest = rest.split_once('#').map_or(rest, |(r, _)| r);
    let (before_query, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (host, path) = match before_query.strip_prefix("//") {
        Some(authority) => {
            let (auth, path) = match authority.find('/') {
                Some(i) => (&authority[..i], &authority[i..]),
                None => (authority, ""),
            };
            let host = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
            (host.to_string(), path.to_string())
        }
        None => (String::new(), before_query.to_string()),
    };
    Some(Url {
        scheme,
        host,
        path,
        query: query.to_string(),
    })
}

fn dns1123_label(s: &str) -> bool {
    static RE: OnceLock<Option<regex::Regex>> = OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").ok());
    s.len() <= 63 && re.as_ref().is_some_and(|r| r.is_match(s))
}

fn dns1123_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(dns1123_label)
}

fn dns1035_label(s: &str) -> bool {
    dns1123_label(s) && s.starts_with(|c: char| c.is_ascii_lowercase())
}

/// Go `time.ParseDuration`: a sequence of decimal numbers with units (`1h30m`, `300s`, `1.5h`).
pub fn parse_duration(s: &str) -> Option<i128> {
    let (neg, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..num_end].parse().ok()?;
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += number * factor;
    }
    let nanos = total as i128;
    Some(if neg { -nanos } else { nanos })
}

/// Runs `search` with `pattern` compiled, cached per thread: CEL `matches()` runs the same few
/// patterns on every object, and compiling them dominated validation time. The search runs on
/// the cached `Regex` itself: a clone starts with an empty pool of search caches, so each call
/// built one afresh and its lazy DFA again (3% of a cold check of the large fleet).
fn with_regex<T>(
    pattern: &str,
    function: &str,
    search: impl FnOnce(&regex::Regex) -> T,
) -> Result<T, ExecutionError> {
    thread_local! {
        static CACHE: std::cell::RefCell<HashMap<String, regex::Regex>> =
            std::cell::RefCell::new(HashMap::new());
    }
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        if let Some(re) = cache.get(pattern) {
            return Ok(search(re));
        }
        let re = regex::Regex::new(pattern)
            .map_err(|e| err(function, format!("'{pattern}' not a valid regex:\n{e}")))?;
        let found = search(&re);
        cache.insert(pattern.to_string(), re);
        Ok(found)
    })
}

/// Binds the library to an evaluation context.
pub fn register(ctx: &mut Context<'_, '_>) {
    // `matches` (RE2 syntax; the Rust regex crate accepts the same patterns), with a cache.
    let _ = ctx.add_function(
        "matches",
        |This(s): This<Arc<String>>, pattern: Arc<String>| -> Result<bool, ExecutionError> {
            with_regex(&pattern, "matches", |re| re.is_match(&s))
        },
    );
    let _ = ctx.add_function("isIP", |s: Arc<String>| parse_ip(&s).is_some());
    let _ = ctx.add_function("isCIDR", |s: Arc<String>| parse_cidr(&s).is_some());
    let _ = ctx.add_function("isURL", |s: Arc<String>| parse_url(&s).is_some());
    let _ = ctx.add_function(
        "ip",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            match &v {
                Value::String(s) => parse_ip(s)
                    .map(|ip| opaque(Ip(ip)))
                    .ok_or_else(|| err("ip", format!("IP Address {s:?} parse error"))),
                other => downcast::<Cidr>(other, "ip").map(|c| opaque(Ip(c.0))),
            }
        },
    );
    let _ = ctx.add_function("cidr", |s: Arc<String>| -> Result<Value, ExecutionError> {
        parse_cidr(&s)
            .map(|(ip, p)| opaque(Cidr(ip, p)))
            .ok_or_else(|| err("cidr", format!("network address {s:?} parse error")))
    });
    let _ = ctx.add_function(
        "family",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            let ip = downcast::<Ip>(&v, "family")?;
            Ok(Value::Int(if ip.0.is_ipv4() { 4 } else { 6 }))
        },
    );
    let _ = ctx.add_function(
        "prefixLength",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            Ok(Value::Int(i64::from(
                downcast::<Cidr>(&v, "prefixLength")?.1,
            )))
        },
    );
    let _ = ctx.add_function("url", |s: Arc<String>| -> Result<Value, ExecutionError> {
        parse_url(&s)
            .map(opaque)
            .ok_or_else(|| err("url", format!("URL {s:?} parse error")))
    });
    let _ = ctx.add_function(
        "getScheme",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            Ok(Value::from(
                downcast::<Url>(&v, "getScheme")?.scheme.clone(),
            ))
        },
    );
    let _ = ctx.add_function(
        "getHost",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            Ok(Value::from(downcast::<Url>(&v, "getHost")?.host.clone()))
        },
    );
    let _ = ctx.add_function(
        "getEscapedPath",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            Ok(Value::from(
                downcast::<Url>(&v, "getEscapedPath")?.path.clone(),
            ))
        },
    );
    let _ = ctx.add_function(
        "getQuery",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            let url = downcast::<Url>(&v, "getQuery")?;
            let mut map: HashMap<String, Vec<Value>> = HashMap::new();
            for pair in url.query.split(['&', ';']).filter(|p| !p.is_empty()) {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                map.entry(k.to_string())
                    .or_default()
                    .push(Value::from(v.to_string()));
            }
            let map: HashMap<String, Value> =
                map.into_iter().map(|(k, v)| (k, Value::from(v))).collect();
            Ok(Value::from(map))
        },
    );
    let _ = ctx.add_function(
        "find",
        |This(s): This<Arc<String>>, pattern: Arc<String>| -> Result<Value, ExecutionError> {
            let found = with_regex(&pattern, "find", |re| {
                re.find(&s).map(|m| m.as_str().to_string())
            })?;
            Ok(Value::from(found.unwrap_or_default()))
        },
    );
    for name in ["dns1123Subdomain", "dns1123Label", "dns1035Label"] {
        let _ = ctx.add_function(&format!("format.{name}"), move || opaque(Format(name)));
    }
    let _ = ctx.add_function(
        "validate",
        |This(f): This<Value>, s: Arc<String>| -> Result<Value, ExecutionError> {
            let format = downcast::<Format>(&f, "validate")?;
            let (ok, what) = match format.0 {
                "dns1123Subdomain" => (dns1123_subdomain(&s), "a lowercase RFC 1123 subdomain"),
                "dns1123Label" => (dns1123_label(&s), "a lowercase RFC 1123 label"),
                _ => (dns1035_label(&s), "a DNS-1035 label"),
            };
            Ok(if ok {
                opaque(OptionalValue::none())
            } else {
                opaque(OptionalValue::of(Value::from(vec![Value::from(format!(
                    "must be {what}"
                ))])))
            })
        },
    );
    let _ = ctx.add_function(
        "duration",
        |s: Arc<String>| -> Result<Value, ExecutionError> {
            parse_duration(&s)
                .map(|d| opaque(Duration(d)))
                .ok_or_else(|| err("duration", format!("invalid duration {s:?}")))
        },
    );
    let _ = ctx.add_function(
        "getSeconds",
        |This(v): This<Value>| -> Result<Value, ExecutionError> {
            let d = downcast::<Duration>(&v, "getSeconds")?;
            Ok(Value::Int((d.0 / 1_000_000_000) as i64))
        },
    );
}

#[cfg(test)]
mod tests {
    use super::super::{evaluate, to_cel, Outcome};
    use serde_json::json;

    fn holds(rule: &str, this: serde_json::Value) -> Outcome {
        evaluate(rule, &to_cel(&this), None)
    }

    #[test]
    fn ip_and_cidr_functions_follow_kubernetes() {
        assert_eq!(holds("isIP(self)", json!("10.0.0.1")), Outcome::Pass);
        assert_eq!(holds("isIP(self)", json!("10.0.0.300")), Outcome::Fail);
        assert_eq!(holds("isIP(self)", json!("::ffff:10.0.0.1")), Outcome::Fail);
        assert_eq!(
            holds(
                "isCIDR(self) && cidr(self).ip().family() == 6",
                json!("fd01::/48")
            ),
            Outcome::Pass
        );
        assert_eq!(
            holds(
                "isCIDR(self) && cidr(self).prefixLength() <= 30",
                json!("100.64.0.0/31")
            ),
            Outcome::Fail
        );
        assert_eq!(holds("isCIDR(self)", json!("100.64.0.0/33")), Outcome::Fail);
        assert_eq!(
            holds("ip(self).family() == 4", json!("1.2.3.4")),
            Outcome::Pass
        );
    }

    #[test]
    fn url_functions_follow_kubernetes() {
        assert_eq!(
            holds(
                "isURL(self) && url(self).getScheme() == 'https'",
                json!("https://a.b/c")
            ),
            Outcome::Pass
        );
        assert_eq!(holds("isURL(self)", json!("not a url")), Outcome::Fail);
        assert_eq!(
            holds("url(self).getQuery() == {}", json!("https://a.b/c")),
            Outcome::Pass
        );
        assert_eq!(
            holds(
                "url(self).getQuery().size() == 0",
                json!("https://a.b/c?x=1")
            ),
            Outcome::Fail
        );
        assert_eq!(
            holds("url(self).getHost() == 'a.b'", json!("https://u@a.b/c")),
            Outcome::Pass
        );
    }

    #[test]
    fn strings_regex_and_formats() {
        assert_eq!(
            holds("self.find('@') == ''", json!("https://a")),
            Outcome::Pass
        );
        assert_eq!(
            holds("self.find('#(.+)$') == ''", json!("https://a#x")),
            Outcome::Fail
        );
        assert_eq!(
            holds("self.lowerAscii() == 'abc'", json!("AbC")),
            Outcome::Pass
        );
        assert_eq!(
            holds("int(self.split('/')[1]) <= 30", json!("10.0.0.0/24")),
            Outcome::Pass
        );
        assert_eq!(
            holds(
                "!format.dns1123Subdomain().validate(self).hasValue()",
                json!("rhel-10.x")
            ),
            Outcome::Pass
        );
        assert_eq!(
            holds(
                "!format.dns1123Subdomain().validate(self).hasValue()",
                json!("RHEL")
            ),
            Outcome::Fail
        );
        assert_eq!(
            holds("duration(self).getSeconds() >= 300", json!("4m59s")),
            Outcome::Fail
        );
        assert_eq!(
            holds("duration(self).getSeconds() >= 300", json!("1h")),
            Outcome::Pass
        );
    }

    #[test]
    fn matches_works_as_member_and_global_call() {
        assert_eq!(
            holds("self.matches('^[a-z]+$')", json!("abc")),
            Outcome::Pass
        );
        assert_eq!(
            holds("matches(self, '^[a-z]+$')", json!("aBc")),
            Outcome::Fail
        );
        assert!(matches!(
            holds("self.matches('(')", json!("x")),
            Outcome::Unevaluable(_)
        ));
    }

    #[test]
    fn optionals_and_macros() {
        let obj = json!({"spec": {"a": [1, 2, 3]}, "status": {}});
        assert_eq!(
            holds("self.?status.mode.orValue('') == ''", obj.clone()),
            Outcome::Pass
        );
        assert_eq!(holds("self.?spec.a.hasValue()", obj.clone()), Outcome::Pass);
        assert_eq!(
            holds("has(self.spec.a) && self.spec.a.all(x, x > 0)", obj.clone()),
            Outcome::Pass
        );
        assert_eq!(
            holds("self.spec.a.exists_one(x, x == 2)", obj.clone()),
            Outcome::Pass
        );
        assert_eq!(holds("!has(self.spec.b)", obj), Outcome::Pass);
    }

    #[test]
    fn transition_rules_bind_old_self() {
        let r = "self == oldSelf";
        assert_eq!(
            super::super::evaluate(r, &to_cel(&json!("a")), Some(&to_cel(&json!("b")))),
            Outcome::Fail
        );
    }
}
