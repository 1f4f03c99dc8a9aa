// The few Linux system headers Swift's Glibc module does not bring in.
// The manual loop's file descriptor is a timerfd; the thread loop wakes with an eventfd.
#ifndef CMVVM_SYSTEM_H
#define CMVVM_SYSTEM_H
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#endif
