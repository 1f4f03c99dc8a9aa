// The slow paths of cmvvm_word_lock (the rest of the header is inline).
#include "CMVVMSystem.h"
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread void *cmvvm_held_work_locks = NULL;
cmvvm_word_lock cmvvm_published_locks[64];
__thread void *cmvvm_published_pending = 0;

/* Contended: mark the lock waited for (2) and sleep until it is given back, then take it, still
 * marked 2 since other threads may be waiting too. */
void cmvvm_word_lock_wait(cmvvm_word_lock *lock) {
    uint32_t seen = __atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE);
    while (seen != 0) {
        syscall(SYS_futex, &lock->state, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        seen = __atomic_exchange_n(&lock->state, 2, __ATOMIC_ACQUIRE);
    }
}

void cmvvm_word_lock_wake(cmvvm_word_lock *lock) {
    syscall(SYS_futex, &lock->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
