#include "CMVVMSystem.h"

/* Weak: defined by the library's own package (its hook, `libmvvm_register_package`, which also
 * registers any package the library carries, the catalog included: docs/packages.md), or not at
 * all. One hook per library, so that the engine knows no package by name. */
void libmvvm_register_package(void) __attribute__((weak));

void libmvvm_run_registrations(void) {
    if (libmvvm_register_package) libmvvm_register_package();
}

bool libmvvm_has_package_registration(void) {
    return libmvvm_register_package != 0;
}
