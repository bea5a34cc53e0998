#ifndef _SAD_UNISTD_H
#define _SAD_UNISTD_H
#include <sys/types.h>
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define _SC_NPROCESSORS_ONLN 84
#define _SC_CLK_TCK 2
extern char *optarg;
extern int optind, opterr, optopt;
int getopt(int argc, char *const argv[], const char *optstring);
unsigned int sleep(unsigned int seconds);
int usleep(unsigned int usec);
pid_t getpid(void);
int gethostname(char *name, size_t len);
long sysconf(int name);
ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
int close(int fd);
int access(const char *path, int mode);
char *getcwd(char *buf, size_t size);
#endif
