/*
 * socks.c — which socket a call's reply arrives on, and when it last did.
 *
 * curl tells of header bytes only by the whole line, so a status line or
 * header trickled slower than the stall timeout would look like silence
 * (transfer.c).  The kernel knows better: TCP_INFO's tcpi_last_data_recv
 * is the time since the socket last received data.  To ask it, a call
 * needs its socket, which curl does not tell mid-transfer (its
 * CURLINFO_ACTIVESOCKET answers only after the transfer), and a reused
 * connection's socket was opened by an earlier call.  So the client opens
 * and closes the sockets itself (curl's open/close callbacks) and keeps
 * them in a table, and when a call's connection is ready (its pre-request
 * callback, for new and reused connections alike) the socket is found by
 * the connection's local and remote ports.
 *
 * Everything here runs in the client's thread, or after it has ended
 * (curl_multi_cleanup closes what is left), so the table needs no lock.
 * Where TCP_INFO does not exist the table is still kept, and a call's
 * quiet time is unknown (-1): the stall clock then counts whole lines.
 */
#include "client_int.h"

#include "util/xmem.h"

#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>
#if defined(__linux__)
#include <netinet/tcp.h>
#endif
#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 0            /* where there is none: curl's own default */
#endif

static curl_socket_t on_open(void *ud, curlsocktype purpose, struct curl_sockaddr *a)
{
    llm_client *c = ud;
    (void)purpose;
    curl_socket_t fd = socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
    if (fd == CURL_SOCKET_BAD) return fd;
    if (c->nsocks == c->capsocks) {
        c->capsocks = c->capsocks ? 2 * c->capsocks : 16;
        c->socks = xrealloc(c->socks, (size_t)c->capsocks * sizeof *c->socks);
    }
    c->socks[c->nsocks++] = fd;
    return fd;
}

static int on_close(void *ud, curl_socket_t fd)
{
    llm_client *c = ud;
    for (int i = 0; i < c->nsocks; i++)
        if (c->socks[i] == fd) {
            c->socks[i] = c->socks[--c->nsocks];
            break;
        }
    return close(fd);
}

/* The port of socket address A (IPv4 or IPv6); -1 for another family. */
static int port_of(const struct sockaddr_storage *a)
{
    if (a->ss_family == AF_INET) return ntohs(((const struct sockaddr_in *)a)->sin_port);
    if (a->ss_family == AF_INET6) return ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
    return -1;
}

static int on_prereq(void *ud, char *remote_ip, char *local_ip, int remote_port, int local_port)
{
    llm_call *k = ud;
    llm_client *c = k->cl;
    (void)remote_ip;
    (void)local_ip;
    k->sent = 1;                  /* connected: the request goes out now */
    k->fd = -1;
    for (int i = 0; i < c->nsocks; i++) {
        struct sockaddr_storage mine, theirs;
        socklen_t ml = sizeof mine, tl = sizeof theirs;
        if (getsockname(c->socks[i], (struct sockaddr *)&mine, &ml) ||
            getpeername(c->socks[i], (struct sockaddr *)&theirs, &tl))
            continue;
        if (port_of(&mine) == local_port && port_of(&theirs) == remote_port) {
            k->fd = c->socks[i];
            break;
        }
    }
    return CURL_PREREQFUNC_OK;
}

void llm_socks_setup(llm_client *c, llm_call *k)
{
    k->fd = -1;
    curl_easy_setopt(k->easy, CURLOPT_OPENSOCKETFUNCTION, on_open);
    curl_easy_setopt(k->easy, CURLOPT_OPENSOCKETDATA, c);
    curl_easy_setopt(k->easy, CURLOPT_CLOSESOCKETFUNCTION, on_close);
    curl_easy_setopt(k->easy, CURLOPT_CLOSESOCKETDATA, c);
    curl_easy_setopt(k->easy, CURLOPT_PREREQFUNCTION, on_prereq);
    curl_easy_setopt(k->easy, CURLOPT_PREREQDATA, k);
}

double llm_socks_quiet(const llm_call *k)
{
#if defined(__linux__) && defined(TCP_INFO)
    if (k->fd < 0) return -1;
    struct tcp_info ti;
    socklen_t len = sizeof ti;
    if (getsockopt(k->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) ||
        len < offsetof(struct tcp_info, tcpi_last_data_recv) + sizeof ti.tcpi_last_data_recv)
        return -1;
    return ti.tcpi_last_data_recv / 1000.0;
#else
    (void)k;
    return -1;
#endif
}

void llm_socks_free(llm_client *c)
{
    free(c->socks);
    c->socks = NULL;
    c->nsocks = c->capsocks = 0;
}
