// Forwarding header: the roles moved to facts/roles.h (read by the checks
// and the cost model alike). Include that instead.
#pragma once

#include "facts/roles.h"
