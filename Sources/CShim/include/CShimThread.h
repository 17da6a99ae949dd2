#ifndef CSHIM_THREAD_H
#define CSHIM_THREAD_H

/// Sets the nice value of the calling thread only (setpriority on its thread id). Returns 0 or -1 with errno.
int cshim_set_thread_nice(int nice);

#endif
