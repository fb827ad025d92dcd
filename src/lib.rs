//! nodecast: forecast node impact of manifest changes and lint them.
