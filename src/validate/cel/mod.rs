//! CEL evaluation of `x-kubernetes-validations` rules with the `cel` crate, plus the Kubernetes
//! CEL library functions the bundled CRDs use ([`k8s`]).

pub mod k8s;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub use ::cel::Value;
use ::cel::{Context, Env, Program};

/// What a rule evaluation produced.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The rule holds.
    Pass,
    /// The rule is violated.
    Fail,
    /// The rule hit an error the API server also reports as a rejection (a missing key, an index
    /// out of bounds, division by zero, overflow): the error text.
    Error(String),
    /// nodecast cannot evaluate it (parse error, unsupported function, runtime error): why.
    Unevaluable(String),
}

fn env() -> &'static Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Env::stdlib();
        // The strings extension gives split, lowerAscii, indexOf, join, … as Kubernetes enables.
        let _ = ::cel::extensions::strings(&mut env);
        let _ = ::cel::extensions::lists(&mut env);
        Arc::new(env)
    })
}

type Cache = Mutex<HashMap<String, Result<Arc<Program>, String>>>;

/// Compiles a rule once per process (the same text in many CRD variants shares one program).
pub fn compile(rule: &str) -> Result<Arc<Program>, String> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    if let Ok(guard) = cache.lock() {
        if let Some(hit) = guard.get(rule) {
            return hit.clone();
        }
    }
    let compiled = std::panic::catch_unwind(|| env().compile(rule))
        .map_err(|_| "the CEL parser panicked".to_string())
        .and_then(|r| r.map_err(|e| format!("cannot parse: {e}")))
        .map(Arc::new);
    if let Ok(mut guard) = cache.lock() {
        guard.insert(rule.to_string(), compiled.clone());
    }
    compiled
}

/// Converts a JSON value as the API server hands it to CEL.
pub fn to_cel(v: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match v {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Value::Int(i),
            (None, Some(u), _) => Value::UInt(u),
            (_, _, Some(f)) => Value::Float(f),
            _ => Value::Null,
        },
        J::String(s) => Value::String(Arc::new(s.clone())),
        J::Array(items) => Value::List(Arc::new(items.iter().map(to_cel).collect())),
        J::Object(map) => {
            let m: HashMap<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), to_cel(v))).collect();
            Value::from(m)
        }
    }
}

/// An optional value (`optionalOldSelf` binds `oldSelf` as one).
pub fn optional(v: Option<Value>) -> Value {
    let o = match v {
        Some(v) => ::cel::objects::OptionalValue::of(v),
        None => ::cel::objects::OptionalValue::none(),
    };
    Value::Opaque(Arc::new(o))
}

thread_local! {
    // The Kubernetes library is registered once per thread; each evaluation binds `self`
    // and `oldSelf` in a child scope.
    static ROOT: Context<'static, 'static> = {
        let mut ctx = Context::with_env(env().clone());
        k8s::register(&mut ctx);
        ctx
    };
}

/// How a rule sees `oldSelf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OldSelf {
    /// Not bound (a rule that is not a transition rule).
    Unbound,
    /// The old value.
    Value,
    /// The old value as an optional (`optionalOldSelf: true`; none on create).
    Optional,
}

/// The rules of one schema node, evaluated with `self` and each form of `oldSelf` bound once:
/// binding converts the whole value for the interpreter, and a node often has several rules.
pub fn at_node<R>(this: &Value, old: Option<&Value>, f: impl FnOnce(&mut Bound<'_>) -> R) -> R {
    ROOT.with(|root| {
        let mut with_self = root.new_inner_scope();
        with_self.add_variable_from_value("self", this.clone());
        let mut with_old = with_self.new_inner_scope();
        let mut with_optional = with_self.new_inner_scope();
        let mut bound = Bound {
            old,
            with_self: &with_self,
            with_old: &mut with_old,
            with_optional: &mut with_optional,
            bound_old: false,
            bound_optional: false,
        };
        f(&mut bound)
    })
}

/// A node's bindings (see [`at_node`]); `oldSelf` is converted on first use.
pub struct Bound<'c> {
    old: Option<&'c Value>,
    with_self: &'c Context<'c, 'static>,
    with_old: &'c mut Context<'c, 'static>,
    with_optional: &'c mut Context<'c, 'static>,
    bound_old: bool,
    bound_optional: bool,
}

impl Bound<'_> {
    fn context(&mut self, old_self: OldSelf) -> &Context<'_, 'static> {
        match old_self {
            OldSelf::Unbound => self.with_self,
            OldSelf::Value => {
                if !self.bound_old {
                    if let Some(old) = self.old {
                        self.with_old
                            .add_variable_from_value("oldSelf", old.clone());
                    }
                    self.bound_old = true;
                }
                self.with_old
            }
            OldSelf::Optional => {
                if !self.bound_optional {
                    self.with_optional
                        .add_variable_from_value("oldSelf", optional(self.old.cloned()));
                    self.bound_optional = true;
                }
                self.with_optional
            }
        }
    }

    /// Like [`evaluate`], with this node's bindings.
    pub fn evaluate(&mut self, rule: &str, old_self: OldSelf) -> Outcome {
        let program = match compile(rule) {
            Ok(p) => p,
            Err(e) => return Outcome::Unevaluable(e),
        };
        outcome(execute(&program, self.context(old_self)))
    }

    /// Like [`message`], with this node's bindings.
    pub fn message(&mut self, expr: &str, old_self: OldSelf) -> Option<String> {
        let program = compile(expr).ok()?;
        message_of(execute(&program, self.context(old_self)))
    }
}

fn outcome(result: Result<Value, Failure>) -> Outcome {
    match result {
        Ok(Value::Bool(true)) => Outcome::Pass,
        Ok(Value::Bool(false)) => Outcome::Fail,
        Ok(other) => Outcome::Unevaluable(format!("the rule yields {other:?}, not a boolean")),
        Err(Failure::Rejected(e)) => Outcome::Error(e),
        Err(Failure::Unsupported(e)) => Outcome::Unevaluable(e),
    }
}

fn message_of(result: Result<Value, Failure>) -> Option<String> {
    match result {
        Ok(Value::String(s)) if !s.trim().is_empty() => Some(s.to_string()),
        _ => None,
    }
}

fn execute(program: &Program, ctx: &Context<'_, '_>) -> Result<Value, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| program.execute(ctx)))
        .map_err(|_| Failure::Unsupported("the CEL interpreter panicked".to_string()))?
        .map_err(|e| {
            use ::cel::ExecutionError as E;
            match &e {
                E::NoSuchKey(k) => Failure::Rejected(format!("no such key: {k}")),
                E::IndexOutOfBounds(_)
                | E::DivisionByZero(_)
                | E::RemainderByZero(_)
                | E::Overflow(..) => Failure::Rejected(e.to_string()),
                _ => Failure::Unsupported(e.to_string()),
            }
        })
}

/// Why a program did not yield a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// An error the API server reports as a rejection too.
    Rejected(String),
    /// Something nodecast does not implement, or a type it binds differently.
    Unsupported(String),
}

/// Evaluates one rule on its own (tests and one-off checks): `Pass` when it yields `true`, `Fail`
/// on `false`; `oldSelf` is bound when `old` is given. Validation uses [`at_node`].
pub fn evaluate(rule: &str, this: &Value, old: Option<&Value>) -> Outcome {
    let old_self = if old.is_some() {
        OldSelf::Value
    } else {
        OldSelf::Unbound
    };
    at_node(this, old, |bound| bound.evaluate(rule, old_self))
}

/// True when a rule reads the previous revision.
pub fn is_transition(rule: &str) -> bool {
    let bytes = rule.as_bytes();
    rule.match_indices("oldSelf").any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + 7).copied();
        let ident = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
        !ident(before) && !ident(after)
    })
}
