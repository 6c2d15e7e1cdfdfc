/*
 * librondo_disk: the system calls behind io.rondo.scheduler.device.NativeDiskIo.
 *
 * Rondo schedules its own disk reads and writes (SCAN within a round), so it needs what Java does
 * not give: IO that bypasses the page cache (O_DIRECT, so the order Rondo picks is the order the
 * device sees), the physical address of a file's bytes on the device (FIEMAP, the sort key), and
 * blocks reserved ahead of a recording's writes (fallocate), so that no round pays for allocation.
 *
 * Conventions: every failed system call throws java.io.IOException (FileNotFoundException for
 * ENOENT) whose message names the operation, the path and strerror(errno); arguments that would
 * make a system call touch the wrong memory throw IllegalArgumentException before the call. After
 * throwing, a function returns at once and its return value is ignored by the JVM.
 *
 * Built by the scheduler module's pom (maven-antrun-plugin, compile phase) with
 * gcc -Wall -Wextra -Werror -O2 -fPIC -shared, against the header javac -h generates.
 */
#define _GNU_SOURCE /* O_DIRECT, fallocate, strerrordesc_np */

#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_rondo_scheduler_device_NativeDiskIo.h"

#define ALIGNMENT io_rondo_scheduler_device_NativeDiskIo_NATIVE_ALIGNMENT
#define ABI_VERSION io_rondo_scheduler_device_NativeDiskIo_ABI_VERSION

/* Makes a system call that returns 0 or -1 again while a signal interrupts it (EINTR); gives its result. */
#define RETRY_EINTR(call) __extension__({ int r_; while ((r_ = (call)) != 0 && errno == EINTR) { } r_; })

/* Extents asked for per FIEMAP call; files with more are mapped in several calls. */
#define FIEMAP_BATCH 256

_Static_assert((ALIGNMENT & (ALIGNMENT - 1)) == 0, "the alignment must be a power of two");

/* Throws IllegalArgumentException with a printf-formatted (ASCII) message. */
static void throw_illegal(JNIEnv *env, const char *format, ...)
{
    char message[256];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    jclass type = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (type != NULL) {
        (*env)->ThrowNew(env, type, message);
    }
}

/*
 * Throws "<op> <path><detail>: <strerror(err)><hint>". The error text is glibc's untranslated one,
 * so it is plain ASCII whatever the locale; the path comes from Java as modified UTF-8; so the
 * message is always valid for ThrowNew.
 */
static void throw_errno(JNIEnv *env, int err, const char *op, jstring path, const char *detail,
                        const char *hint)
{
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    const char *name = path != NULL ? (*env)->GetStringUTFChars(env, path, NULL) : "?";
    if (name == NULL) {
        return; /* OutOfMemoryError is pending */
    }
    char unknown[32];
    const char *text = strerrordesc_np(err);
    if (text == NULL) {
        snprintf(unknown, sizeof unknown, "error %d", err);
        text = unknown;
    }
    size_t size = strlen(op) + strlen(name) + strlen(detail) + strlen(text) + strlen(hint) + 8;
    char *message = malloc(size);
    if (message != NULL) {
        snprintf(message, size, "%s %s%s: %s%s", op, name, detail, text, hint);
    }
    if (path != NULL) {
        (*env)->ReleaseStringUTFChars(env, path, name);
    }
    jclass type = (*env)->FindClass(env, err == ENOENT ? "java/io/FileNotFoundException" : "java/io/IOException");
    if (type != NULL) {
        (*env)->ThrowNew(env, type, message != NULL ? message : op);
    }
    free(message);
}

JNIEXPORT jint JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_abiVersion0(JNIEnv *env, jclass cls)
{
    (void) env;
    (void) cls;
    return ABI_VERSION;
}

/*
 * open(2) with O_DIRECT, for reading, or for reading and writing (created if missing, never
 * truncated) if writable; only regular files are accepted. Returns the descriptor.
 */
JNIEXPORT jint JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_open0(JNIEnv *env, jclass cls,
                                                                         jbyteArray native_path, jstring path,
                                                                         jboolean writable)
{
    (void) cls;
    if (native_path == NULL) {
        throw_illegal(env, "the path is null");
        return -1;
    }
    jsize length = (*env)->GetArrayLength(env, native_path);
    char *name = malloc((size_t) length + 1);
    if (name == NULL) {
        throw_errno(env, ENOMEM, "open", path, "", "");
        return -1;
    }
    (*env)->GetByteArrayRegion(env, native_path, 0, length, (jbyte *) name);
    name[length] = '\0';
    if (memchr(name, '\0', (size_t) length) != NULL) {
        free(name);
        throw_illegal(env, "the path holds a NUL byte");
        return -1;
    }

    int fd;
    do {
        fd = writable ? open(name, O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0644)
                      : open(name, O_RDONLY | O_DIRECT | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    int err = errno;
    struct stat st;
    /* EINVAL from open(2) means O_DIRECT was refused: by the file system, or because it is a directory. */
    int refused = fd < 0 && err == EINVAL;
    int is_dir = refused && stat(name, &st) == 0 && S_ISDIR(st.st_mode);
    free(name);
    if (fd < 0) {
        throw_errno(env, is_dir ? EISDIR : err, "open", path, " with O_DIRECT",
                    refused && !is_dir ? " (the file system refuses O_DIRECT)" : "");
        return -1;
    }

    if (fstat(fd, &st) != 0) {
        err = errno;
        close(fd);
        throw_errno(env, err, "fstat", path, "", "");
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        int is_directory = S_ISDIR(st.st_mode);
        throw_errno(env, is_directory ? EISDIR : EINVAL, "open", path, "", is_directory ? "" : " (not a regular file)");
        return -1;
    }
    return fd;
}

JNIEXPORT void JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_close0(JNIEnv *env, jclass cls, jint fd,
                                                                          jstring path)
{
    (void) cls;
    /* On Linux the descriptor is released even when close(2) says EINTR: never retry. */
    if (close(fd) != 0 && errno != EINTR) {
        throw_errno(env, errno, "close", path, "", "");
    }
}

/*
 * The address of length bytes from index position of the direct buffer buf, for an O_DIRECT
 * transfer at offset; NULL, with IllegalArgumentException thrown, if anything is missing, out of
 * the buffer or unaligned.
 */
static char *direct_span(JNIEnv *env, jobject buf, jint position, jint length, jlong offset)
{
    if (buf == NULL) {
        throw_illegal(env, "the buffer is null");
        return NULL;
    }
    char *base = (*env)->GetDirectBufferAddress(env, buf);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, buf);
    if (base == NULL || capacity < 0) {
        throw_illegal(env, "the buffer is not a direct buffer");
        return NULL;
    }
    if (position < 0 || length < 0 || position > capacity - length) {
        throw_illegal(env, "position %d and length %d do not fit in a buffer of %lld bytes",
                      (int) position, (int) length, (long long) capacity);
        return NULL;
    }
    char *start = base + position;
    if (offset < 0 || offset % ALIGNMENT != 0 || length % ALIGNMENT != 0 || (uintptr_t) start % ALIGNMENT != 0) {
        throw_illegal(env, "O_DIRECT needs offset (%lld), length (%d) and address (%p) aligned to %d bytes",
                      (long long) offset, (int) length, (void *) start, (int) ALIGNMENT);
        return NULL;
    }
    return start;
}

/* Throws the error of an IO that failed done bytes into length bytes at offset. */
static void throw_transfer(JNIEnv *env, int err, const char *op, jstring path, jlong offset, size_t done,
                           jlong length)
{
    char detail[64];
    snprintf(detail, sizeof detail, " at offset %lld, %lld bytes", (long long) offset + (long long) done,
             (long long) length - (long long) done);
    throw_errno(env, err, op, path, detail, "");
}

/*
 * pread(2) of length bytes at offset into the direct buffer dst, starting at its index position.
 * Loops on EINTR and on short reads; stops at the end of the file. Returns the bytes read.
 */
JNIEXPORT jint JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_pread0(JNIEnv *env, jclass cls, jint fd,
                                                                          jobject dst, jint position, jint length,
                                                                          jlong offset, jstring path)
{
    (void) cls;
    char *start = direct_span(env, dst, position, length, offset);
    if (start == NULL) {
        return -1;
    }
    size_t done = 0;
    while (done < (size_t) length) {
        ssize_t n = pread(fd, start + done, (size_t) length - done, (off_t) (offset + (jlong) done));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_transfer(env, errno, "pread", path, offset, done, length);
            return -1;
        }
        if (n == 0) {
            break; /* end of file */
        }
        done += (size_t) n;
        if (done % ALIGNMENT != 0) {
            break; /* an O_DIRECT read stops mid-block only at the end of the file */
        }
    }
    return (jint) done;
}

/* pwrite(2) of all length bytes of the direct buffer src from its index position, at offset. */
JNIEXPORT void JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_pwrite0(JNIEnv *env, jclass cls, jint fd,
                                                                           jobject src, jint position, jint length,
                                                                           jlong offset, jstring path)
{
    (void) cls;
    const char *start = direct_span(env, src, position, length, offset);
    if (start == NULL) {
        return;
    }
    size_t done = 0;
    while (done < (size_t) length) {
        ssize_t n = pwrite(fd, start + done, (size_t) length - done, (off_t) (offset + (jlong) done));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) { /* 0: nothing taken, no room */
            throw_transfer(env, n < 0 ? errno : ENOSPC, "pwrite", path, offset, done, length);
            return;
        }
        done += (size_t) n;
    }
}

/* fdatasync(2): the file's data, and what metadata reading it back needs, reach the device. */
JNIEXPORT void JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_fdatasync0(JNIEnv *env, jclass cls, jint fd,
                                                                              jstring path)
{
    (void) cls;
    if (RETRY_EINTR(fdatasync(fd)) != 0) {
        throw_errno(env, errno, "fdatasync", path, "", "");
    }
}

/*
 * fallocate(2) with FALLOC_FL_KEEP_SIZE: the blocks of [offset, offset + length) are reserved, the
 * size stays. Returns false where the file system cannot (EOPNOTSUPP), true once reserved.
 */
JNIEXPORT jboolean JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_fallocate0(JNIEnv *env, jclass cls, jint fd,
                                                                                  jlong offset, jlong length,
                                                                                  jstring path)
{
    (void) cls;
    if (offset < 0 || length <= 0 || offset > INT64_MAX - length) {
        throw_illegal(env, "cannot reserve %lld bytes at offset %lld", (long long) length, (long long) offset);
        return JNI_FALSE;
    }
    if (RETRY_EINTR(fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t) offset, (off_t) length)) != 0) {
        if (errno != EOPNOTSUPP) {
            throw_transfer(env, errno, "fallocate", path, offset, 0, length);
        }
        return JNI_FALSE;
    }
    return JNI_TRUE;
}

/* ftruncate(2): the file's size becomes size, cut or extended with zeros. */
JNIEXPORT void JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_ftruncate0(JNIEnv *env, jclass cls, jint fd,
                                                                              jlong size, jstring path)
{
    (void) cls;
    if (size < 0) {
        throw_illegal(env, "cannot set a size of %lld bytes", (long long) size);
        return;
    }
    if (RETRY_EINTR(ftruncate(fd, (off_t) size)) != 0) {
        char detail[48];
        snprintf(detail, sizeof detail, " to %lld bytes", (long long) size);
        throw_errno(env, errno, "ftruncate", path, detail, "");
    }
}

/* fstat(2): {size in bytes, mtime in nanoseconds since the epoch}. */
JNIEXPORT jlongArray JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_fstat0(JNIEnv *env, jclass cls, jint fd,
                                                                                jstring path)
{
    (void) cls;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        throw_errno(env, errno, "fstat", path, "", "");
        return NULL;
    }
    jlong values[2] = { (jlong) st.st_size, (jlong) st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec };
    jlongArray result = (*env)->NewLongArray(env, 2);
    if (result != NULL) {
        (*env)->SetLongArrayRegion(env, result, 0, 2, values);
    }
    return result;
}

/*
 * The FIEMAP ioctl with FIEMAP_FLAG_SYNC (delayed allocations are written first, so every extent
 * has its real address): {logical, physical, length, flags} for each extent, in logical order. One
 * call returns at most FIEMAP_BATCH extents; the next call starts where the last extent ended,
 * until an extent carries FIEMAP_EXTENT_LAST or none are left.
 */
JNIEXPORT jlongArray JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_fiemap0(JNIEnv *env, jclass cls, jint fd,
                                                                                 jstring path)
{
    (void) cls;
    size_t request_size = sizeof(struct fiemap) + FIEMAP_BATCH * sizeof(struct fiemap_extent);
    struct fiemap *request = malloc(request_size);
    jlong *values = NULL; /* 4 per extent */
    size_t count = 0;
    size_t capacity = 0;
    __u64 next = 0;
    int last = 0;
    int err = 0;

    if (request == NULL) {
        err = ENOMEM;
    }
    while (err == 0 && !last) {
        memset(request, 0, request_size);
        request->fm_start = next;
        request->fm_length = FIEMAP_MAX_OFFSET - next;
        request->fm_flags = FIEMAP_FLAG_SYNC;
        request->fm_extent_count = FIEMAP_BATCH;
        if (ioctl(fd, FS_IOC_FIEMAP, request) != 0) {
            if (errno != EINTR) {
                err = errno; /* ends the loop */
            }
            continue;
        }
        __u32 mapped = request->fm_mapped_extents;
        if (mapped == 0) {
            break; /* nothing mapped from next on: the rest is a hole */
        }
        if (count + mapped > capacity) {
            size_t grown = capacity == 0 ? FIEMAP_BATCH : capacity * 2;
            while (grown < count + mapped) {
                grown *= 2;
            }
            jlong *bigger = realloc(values, grown * 4 * sizeof(jlong));
            if (bigger == NULL) {
                err = ENOMEM; /* ends the loop */
                continue;
            }
            values = bigger;
            capacity = grown;
        }
        for (__u32 i = 0; i < mapped; i++) {
            const struct fiemap_extent *extent = &request->fm_extents[i];
            jlong *slot = values + 4 * count++;
            slot[0] = (jlong) extent->fe_logical;
            slot[1] = (jlong) extent->fe_physical;
            slot[2] = (jlong) extent->fe_length;
            slot[3] = (jlong) extent->fe_flags;
            last |= (extent->fe_flags & FIEMAP_EXTENT_LAST) != 0;
        }
        const struct fiemap_extent *end = &request->fm_extents[mapped - 1];
        __u64 after = end->fe_logical + end->fe_length;
        if (after <= next) {
            break; /* no progress: never loop forever on a confused file system */
        }
        next = after;
    }
    free(request);

    jlongArray result = NULL;
    if (err != 0) {
        throw_errno(env, err, "FIEMAP", path, "",
                    err == EOPNOTSUPP ? " (the file system cannot map extents)" : "");
    } else if (count * 4 > INT32_MAX) {
        throw_errno(env, EOVERFLOW, "FIEMAP", path, "", " (too many extents)");
    } else {
        result = (*env)->NewLongArray(env, (jsize) (count * 4));
        if (result != NULL && count > 0) {
            (*env)->SetLongArrayRegion(env, result, 0, (jsize) (count * 4), values);
        }
    }
    free(values);
    return result;
}

/* posix_fadvise(2); advice is one of NativeDiskIo's FADV_ codes. */
JNIEXPORT void JNICALL Java_io_rondo_scheduler_device_NativeDiskIo_fadvise0(JNIEnv *env, jclass cls, jint fd,
                                                                            jlong offset, jlong length, jint advice,
                                                                            jstring path)
{
    (void) cls;
    int code;
    switch (advice) {
    case io_rondo_scheduler_device_NativeDiskIo_FADV_NORMAL: code = POSIX_FADV_NORMAL; break;
    case io_rondo_scheduler_device_NativeDiskIo_FADV_SEQUENTIAL: code = POSIX_FADV_SEQUENTIAL; break;
    case io_rondo_scheduler_device_NativeDiskIo_FADV_RANDOM: code = POSIX_FADV_RANDOM; break;
    case io_rondo_scheduler_device_NativeDiskIo_FADV_WILLNEED: code = POSIX_FADV_WILLNEED; break;
    case io_rondo_scheduler_device_NativeDiskIo_FADV_DONTNEED: code = POSIX_FADV_DONTNEED; break;
    case io_rondo_scheduler_device_NativeDiskIo_FADV_NOREUSE: code = POSIX_FADV_NOREUSE; break;
    default:
        throw_illegal(env, "unknown advice %d", (int) advice);
        return;
    }
    if (offset < 0 || length < 0) {
        throw_illegal(env, "cannot advise on %lld bytes at offset %lld", (long long) length, (long long) offset);
        return;
    }
    /* posix_fadvise returns the error number instead of setting errno. */
    int err = posix_fadvise(fd, (off_t) offset, (off_t) length, code);
    if (err != 0) {
        throw_errno(env, err, "posix_fadvise", path, "", "");
    }
}
