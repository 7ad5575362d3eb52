/* tinylibc.h defines it all: see there. */
#include "../tinylibc.h"
