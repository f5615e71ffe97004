// Forwarding header: the shape samples moved to facts/samples.h (cached per
// kernel in KernelFacts, facts/kernel_facts.h). Include that instead.
#pragma once

#include "facts/samples.h"
