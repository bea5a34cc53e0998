/* sad: declarations only (no definitions). */
#ifndef _SAD_STDATOMIC_H
#define _SAD_STDATOMIC_H
#include <stddef.h>
#include <stdint.h>
/* sad reads atomics as plain objects: their cost is that of the load or store they perform */
typedef int atomic_int;
typedef unsigned int atomic_uint;
typedef long atomic_long;
typedef unsigned long atomic_ulong;
typedef long long atomic_llong;
typedef unsigned long long atomic_ullong;
typedef int atomic_bool;
typedef char atomic_char;
typedef size_t atomic_size_t;
typedef struct { int _x; } atomic_flag;
typedef enum { memory_order_relaxed, memory_order_consume, memory_order_acquire, memory_order_release,
               memory_order_acq_rel, memory_order_seq_cst } memory_order;
#define ATOMIC_FLAG_INIT { 0 }
#define ATOMIC_VAR_INIT(v) (v)
#define atomic_init(obj, v) ((void)(*(obj) = (v)))
#define atomic_load(obj) (*(obj))
#define atomic_load_explicit(obj, order) (*(obj))
#define atomic_store(obj, v) ((void)(*(obj) = (v)))
#define atomic_store_explicit(obj, v, order) ((void)(*(obj) = (v)))
#define atomic_fetch_add(obj, v) ((*(obj) += (v)) - (v))
#define atomic_fetch_add_explicit(obj, v, order) ((*(obj) += (v)) - (v))
#define atomic_fetch_sub(obj, v) ((*(obj) -= (v)) + (v))
#define atomic_fetch_sub_explicit(obj, v, order) ((*(obj) -= (v)) + (v))
#define atomic_thread_fence(order) ((void)0)
void atomic_flag_clear(volatile atomic_flag *f);
int atomic_flag_test_and_set(volatile atomic_flag *f);
#endif
