//! Scalar resolution as Kubernetes does it.
