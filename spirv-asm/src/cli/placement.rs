//! Where batch mode's threads start: the calling thread steps off a CPU on which a
//! worker it has just started is waiting to run.
//!
//! On this machine (Linux 6.18 in a 2-CPU KVM guest) a new thread is queued on the CPU
//! of the thread that made it, even with the other CPU idle, and often does not run
//! until the scheduler's next tick (4 ms) takes that CPU from its maker, which goes on
//! walking and working meanwhile; later wakeups go to the same CPU, as the waker's.
//! Traced (`perf record` of the scheduler's events, 2026-11-30), a `-j 2` run over 618
//! files of about 22 ms lost 2–4 ms this way in most runs, and in some ran both
//! threads on one CPU for 20 ms. Moving the calling thread (the only one a thread may
//! move without knowing the other's id) lets the waiting worker run at once where it
//! is queued, while the calling thread goes on elsewhere. Its allowed CPUs are put
//! back at once: nothing stays pinned, and the scheduler places both freely from then
//! on.

/// Moves the calling thread to another of its allowed CPUs if a thread of this process
/// is waiting to run on the one it is running on (and another CPU is allowed on which
/// none waits); its allowed CPUs are then the same as before. Best effort: without
/// `/proc`, or with one allowed CPU, it does nothing.
#[cfg(target_os = "linux")]
pub fn step_aside() {
    use rustix::thread::{CpuSet, gettid, sched_getaffinity, sched_setaffinity};
    let Ok(allowed) = sched_getaffinity(None) else {
        return;
    };
    if allowed.count() < 2 {
        return;
    }
    let me = gettid().as_raw_nonzero().get();
    // Where each thread of this process was last placed, from `/proc` (not the vDSO's
    // `getcpu`, whose lookup rustix cannot do under valgrind): this thread's CPU, and
    // the CPUs on whose queues another thread waits (one that can run, state `R`, and
    // was placed on the CPU this thread runs on is not running).
    let mut here = None;
    let mut waiting = CpuSet::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return;
    };
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        // After the command's closing parenthesis: the state (field 3), ..., the CPU
        // (field 39); see proc_pid_stat(5).
        let Some((_, fields)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = fields.split_ascii_whitespace();
        let state = fields.next();
        let Some(cpu) = fields.nth(35).and_then(|c| c.parse::<usize>().ok()) else {
            continue;
        };
        if cpu >= CpuSet::MAX_CPU {
            continue;
        }
        if task
            .file_name()
            .to_str()
            .and_then(|t| t.parse::<i32>().ok())
            == Some(me)
        {
            here = Some(cpu);
        } else if state == Some("R") {
            waiting.set(cpu);
        }
    }
    let Some(here) = here.filter(|&cpu| waiting.is_set(cpu)) else {
        return;
    };
    let mut elsewhere = allowed;
    for cpu in 0..CpuSet::MAX_CPU {
        if waiting.is_set(cpu) {
            elsewhere.unset(cpu);
        }
    }
    elsewhere.unset(here);
    if elsewhere.count() == 0 {
        return;
    }
    // Allowed only elsewhere, the thread is moved now; allowed everywhere again, it
    // stays where it was moved until the scheduler decides otherwise.
    if sched_setaffinity(None, &elsewhere).is_ok() {
        let _ = sched_setaffinity(None, &allowed);
    }
}

/// Elsewhere: nothing.
#[cfg(not(target_os = "linux"))]
pub fn step_aside() {}
