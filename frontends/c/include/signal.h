#ifndef _SAD_SIGNAL_H
#define _SAD_SIGNAL_H
typedef int sig_atomic_t;
typedef void (*sighandler_t)(int);
#define SIGINT 2
#define SIGTERM 15
#define SIGALRM 14
sighandler_t signal(int signum, sighandler_t handler);
int raise(int sig);
#endif
