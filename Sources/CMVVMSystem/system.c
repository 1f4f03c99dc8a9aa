// Header-only shim; SwiftPM wants one source file per C target.
#include "CMVVMSystem.h"
