// Which copy of libmvvm this is, among those loaded in one process: a tag (1 to 255) that every
// handle it issues carries, so that a handle of another copy is never taken for one of its own.
// Chosen when the library is loaded, by a constructor: the dynamic loader runs constructors one
// at a time, so two copies never choose at once, and each asks the copies loaded before it.
// A copy loaded when the 255 tags are taken gets none (0) and serves nothing: sharing a tag
// would let it take another copy's handles for its own. The same constructor makes the copy one
// that dlclose never unloads.
#define _GNU_SOURCE
#include "CMVVMSystem.h"
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uint8_t library_tag;
static char linked_twice[1024];
static char untagged[1024];
/* Hidden: each copy of the library has its own, and a global of default visibility would be one
 * name in several loaded copies (AddressSanitizer reports such an ODR violation). */
__attribute__((visibility("hidden"))) const char *libmvvm_untagged_message;

uint8_t libmvvm_own_tag(void) { return library_tag; }

const char *libmvvm_linked_twice(void) { return linked_twice[0] ? linked_twice : NULL; }

struct scan {
    ElfW(Addr) own_base;
    uint8_t used[256];
    /* The main program's DT_NEEDED names (libraries linked by name), and those of them that are
     * copies of libmvvm. */
    const char *needed[64];
    int needed_count;
    char copies[2][256];
    int copy_count;
};

typedef uint8_t (*tag_function)(void);

/* The tag function of the object at `path`, or NULL when it is no copy of libmvvm (or is this one). */
static tag_function tag_of(const char *path, ElfW(Addr) base, const struct scan *scan) {
    if (base == scan->own_base) return NULL;
    void *handle = dlopen(path[0] ? path : NULL, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) return NULL;
    tag_function found = (tag_function)dlsym(handle, "mvvm_library_tag");  /* each copy exports it (API.swift) */
    dlclose(handle);
    if (!found) return NULL;
    /* dlsym searches the object's dependencies too: keep only a function defined in this object. */
    Dl_info info;
    if (!dladdr((void *)found, &info) || (ElfW(Addr))info.dli_fbase != base) return NULL;
    return found;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void note_needed(struct dl_phdr_info *info, struct scan *scan) {
    for (int index = 0; index < info->dlpi_phnum; index++) {
        if (info->dlpi_phdr[index].p_type != PT_DYNAMIC) continue;
        const ElfW(Dyn) *dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[index].p_vaddr);
        const char *strings = NULL;
        for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++)
            if (entry->d_tag == DT_STRTAB) strings = (const char *)entry->d_un.d_ptr;
        if (!strings) return;
        for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++)
            if (entry->d_tag == DT_NEEDED && scan->needed_count < 64)
                scan->needed[scan->needed_count++] = strings + entry->d_un.d_val;
    }
}

static int visit(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct scan *scan = data;
    if (!info->dlpi_name[0]) {  /* the main program: which libraries it links by name */
        note_needed(info, scan);
        return 0;
    }
    int linked = 0;
    for (int index = 0; index < scan->needed_count; index++)
        if (strcmp(base_name(info->dlpi_name), base_name(scan->needed[index])) == 0) linked = 1;
    int is_copy = info->dlpi_addr == scan->own_base;
    tag_function other = tag_of(info->dlpi_name, info->dlpi_addr, scan);
    if (other) {
        scan->used[other()] = 1;
        is_copy = 1;
    }
    if (linked && is_copy && scan->copy_count < 2)
        snprintf(scan->copies[scan->copy_count++], sizeof scan->copies[0], "%s", info->dlpi_name);
    return 0;
}

__attribute__((constructor)) static void choose_library_tag(void) {
    struct scan scan;
    memset(&scan, 0, sizeof scan);
    Dl_info own;
    memset(&own, 0, sizeof own);
    if (dladdr((void *)choose_library_tag, &own)) scan.own_base = (ElfW(Addr))own.dli_fbase;
    /* Never unloaded: dlclose (LuaJIT's collector at exit, a host's) would unmap code that the
     * library's own threads are waiting in (the settings saver, woken 300 ms after work: it then
     * ran unmapped code) and that the Swift runtime's registries of types and conformances point
     * into. RTLD_NOLOAD | RTLD_NODELETE marks the object being loaded; the reference is kept. */
    if (own.dli_fname) (void)dlopen(own.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    scan.used[0] = 1;
    dl_iterate_phdr(visit, &scan);
    for (int tag = 1; tag < 256; tag++) {
        if (!scan.used[tag]) {
            library_tag = (uint8_t)tag;
            break;
        }
    }
    if (library_tag == 0) {
        snprintf(untagged, sizeof untagged,
                 "this copy of libmvvm (%s) is refused: the process has 255 copies of libmvvm loaded already, "
                 "the most it can hold (each copy's handles carry a tag of its own, 1 to 255, so that no copy takes "
                 "another's handles for its own). Load fewer copies, or register the packages in one library",
                 own.dli_fname ? own.dli_fname : "?");
        libmvvm_untagged_message = untagged;
    }
    /* Two copies linked by name: every mvvm_* call binds to the first, so the second's classes
     * can never be reached. Refused, loudly, rather than mixed silently. */
    if (scan.copy_count == 2) {
        snprintf(linked_twice, sizeof linked_twice,
                 "this program links two libmvvm libraries by name (%s and %s): every mvvm_* call goes to the "
                 "first, so the classes of the second can never be reached. Link one, or open each with "
                 "dlopen(path, RTLD_NOW | RTLD_LOCAL) and reach its functions with dlsym", scan.copies[0], scan.copies[1]);
        fprintf(stderr, "libmvvm: %s\n", linked_twice);
    }
}
