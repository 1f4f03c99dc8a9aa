// The few Linux system headers Swift's Glibc module does not bring in.
// The manual loop's file descriptor is a timerfd; the thread loop wakes with an eventfd.
#ifndef CMVVM_SYSTEM_H
#define CMVVM_SYSTEM_H
#include <sys/timerfd.h>
#include <sys/eventfd.h>

/* Runs the registration functions of the packages linked into this library, each once per call:
 * the catalog's (libmvvm_register_catalog) and a user package's (libmvvm_register_package),
 * whichever are present. The registry calls it once, before its first look-up. */
void libmvvm_run_registrations(void);
#endif
