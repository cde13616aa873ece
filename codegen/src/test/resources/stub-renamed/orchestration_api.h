// Test stub of the renamed runtime header: the same API under its new name. A marker macro lets a
// test prove the fallback include picked this file when it exists.
#pragma once
#define PTO_STUB_RENAMED_HEADER 1
#include "../stub/pto_orchestration_api.h"
