#include "CMVVMSystem.h"

/* Weak: each is defined by whichever package the library was linked with, or not at all. The
 * catalog's target defines the first; a package exporting its own classes defines the second
 * (Exports.swift's `libmvvm_register_package`, see README "Export your own view model"). */
void libmvvm_register_catalog(void) __attribute__((weak));
void libmvvm_register_package(void) __attribute__((weak));

void libmvvm_run_registrations(void) {
    if (libmvvm_register_catalog) libmvvm_register_catalog();
    if (libmvvm_register_package) libmvvm_register_package();
}

bool libmvvm_has_package_registration(void) {
    return libmvvm_register_package != 0;
}
