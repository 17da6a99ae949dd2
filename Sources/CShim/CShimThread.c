#define _GNU_SOURCE
#include <sys/resource.h>
#include <unistd.h>
#include "CShimThread.h"

int cshim_set_thread_nice(int nice) { return setpriority(PRIO_PROCESS, (id_t)gettid(), nice); }
