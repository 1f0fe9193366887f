//! The system calls the layers above need that no safe wrapper covers:
//! the only place outside the sandbox's own `sys` where `unsafe` is
//! allowed. Everything else reaches the system through `std` or `rustix`.

pub(crate) mod interrupt;
