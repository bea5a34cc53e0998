/* interp.c -- sad corpus: a switch-driven bytecode interpreter.
 * The bytecode program (below, fixed) sums the integers 1..n into register 1 and counts down register 0;
 * n is read from standard input and stored in register 0 before the run. The dispatch loop is a while
 * loop fetching one opcode per trip; the switch has a default, OP_DEC falls through into OP_ADD,
 * OP_NOP uses continue (skipping the step counter) and the other cases end with break.
 * Prints the registers and the numbers of steps and no-ops. One statement per line.
 */
#include <stdio.h>

enum { OP_HALT, OP_PUSHI, OP_LOAD, OP_STORE, OP_ADD, OP_DEC, OP_DUP, OP_JZ, OP_JNZ, OP_NOP };

static const int code[] = {
    OP_LOAD, 0,       /*  0: push r0                          */
    OP_JZ, 24,        /*  2: if r0 == 0 goto 24 (halt)        */
    OP_PUSHI, 0,      /*  4: push 0                            */
    OP_STORE, 1,      /*  6: r1 = 0                            */
    OP_LOAD, 0,       /*  8: loop: push r0                     */
    OP_LOAD, 1,       /* 10: push r1                           */
    OP_ADD,           /* 12: r0 + r1                           */
    OP_STORE, 1,      /* 13: r1 = r0 + r1                      */
    OP_NOP,           /* 15:                                   */
    OP_LOAD, 0,       /* 16: push r0                           */
    OP_DEC,           /* 18: r0 - 1 (falls into OP_ADD)        */
    OP_DUP,           /* 19:                                   */
    OP_STORE, 0,      /* 20: r0 = r0 - 1                       */
    OP_JNZ, 8,        /* 22: if r0 != 0 goto 8                */
    OP_HALT           /* 24:                                   */
};

int main(void)
{
    long reg[4];
    long stack[16];
    int n;
    int pc, sp, op, running;
    long steps, nops;

    if (scanf("%d", &n) != 1 || n < 0)
        return 1;
    reg[0] = n;
    reg[1] = 0;
    reg[2] = 0;
    reg[3] = 0;
    pc = 0;
    sp = 0;
    steps = 0;
    nops = 0;
    running = 1;
    while (running) {
        op = code[pc];
        pc++;
        switch (op) {
        case OP_PUSHI:
            stack[sp] = code[pc];
            sp++;
            pc++;
            break;
        case OP_LOAD:
            stack[sp] = reg[code[pc]];
            sp++;
            pc++;
            break;
        case OP_STORE:
            sp--;
            reg[code[pc]] = stack[sp];
            pc++;
            break;
        case OP_DEC:
            stack[sp] = -1;
            sp++;
            /* fall through */
        case OP_ADD:
            sp--;
            stack[sp - 1] = stack[sp - 1] + stack[sp];
            break;
        case OP_DUP:
            stack[sp] = stack[sp - 1];
            sp++;
            break;
        case OP_JZ:
            sp--;
            if (stack[sp] == 0)
                pc = code[pc];
            else
                pc++;
            break;
        case OP_JNZ:
            sp--;
            if (stack[sp] != 0)
                pc = code[pc];
            else
                pc++;
            break;
        case OP_NOP:
            nops++;
            continue;
        case OP_HALT:
            running = 0;
            break;
        default:
            printf("interp: bad opcode %d at %d\n", op, pc - 1);
            return 1;
        }
        steps++;
    }
    printf("interp: n = %d  r0 = %ld  r1 = %ld  steps = %ld  nops = %ld  sp = %d\n", n, reg[0], reg[1], steps, nops, sp);
    return 0;
}
