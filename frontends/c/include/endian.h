/* sad: declarations only (no definitions). */
#ifndef _SAD_ENDIAN_H
#define _SAD_ENDIAN_H
#include <stdint.h>
#define LITTLE_ENDIAN 1234
#define BIG_ENDIAN 4321
#define BYTE_ORDER LITTLE_ENDIAN
uint16_t htobe16(uint16_t x);
uint32_t htobe32(uint32_t x);
uint64_t htobe64(uint64_t x);
uint16_t be16toh(uint16_t x);
uint32_t be32toh(uint32_t x);
uint64_t be64toh(uint64_t x);
#endif
