/* sad: declarations only (no definitions). */
#ifndef _SAD_NETDB_H
#define _SAD_NETDB_H
#include <sys/socket.h>
struct hostent { char *h_name; char **h_aliases; int h_addrtype; int h_length; char **h_addr_list; };
struct hostent *gethostbyname(const char *name);
#endif
