// Pango's itemizer as the text-fallback benchmark's peer (issue 29): `pango_itemize` over a whole
// text in a font description, with a fontconfig configuration holding only the benchmark's font
// directories (as fontreg-bench's fontconfig peer does). Itemizing chooses a font for every
// character (Pango's per-character fallback through its fontset); shaping is not timed.
//
//   bench-pango-itemize FAMILY SECONDS CACHE-DIR DIR[,DIR…] TEXT-FILE…
// prints one line per text: its file name, code points, items, nanoseconds per code point.
// A negative SECONDS, -N, makes exactly N calls per text inside `counted_calls`, for callgrind.
// Built by scripts/bench-fallback.sh against Debian's libpango-1.0-0 and libpangoft2-1.0-0 (no
// -dev package: the few functions used are declared here; only fontconfig's header is needed).
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *gpointer;
typedef struct GList {
    gpointer data;
    struct GList *next, *prev;
} GList;
extern gpointer pango_ft2_font_map_new(void);
extern void pango_fc_font_map_set_config(gpointer fontmap, FcConfig *config);
extern gpointer pango_font_map_create_context(gpointer fontmap);
extern gpointer pango_font_description_from_string(const char *text);
extern void pango_context_set_font_description(gpointer context, gpointer description);
extern gpointer pango_attr_list_new(void);
extern GList *pango_itemize(gpointer context, const char *text, int start, int length, gpointer attrs,
                            gpointer cached_iter);
extern void pango_item_free(gpointer item);
extern void g_list_free_full(GList *list, void (*free_func)(gpointer));

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static char *read_file(const char *path, long *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc(*length + 1);
    if (fread(text, 1, *length, file) != (size_t)*length) *length = 0;
    text[*length] = 0;
    fclose(file);
    return text;
}

static long code_points(const char *text, long length) {
    long count = 0;
    for (long i = 0; i < length; i++) count += ((unsigned char)text[i] & 0xC0) != 0x80;
    return count;
}

/* The calls callgrind counts (--toggle-collect=counted_calls): not inlined. */
__attribute__((noinline)) static void counted_calls(gpointer context, const char *text, long length, gpointer attrs,
                                                    long calls) {
    for (long i = 0; i < calls; i++)
        g_list_free_full(pango_itemize(context, text, 0, (int)length, attrs, NULL), pango_item_free);
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: %s FAMILY SECONDS CACHE-DIR DIR[,DIR...] TEXT-FILE...\n", argv[0]);
        return 64;
    }
    double seconds = atof(argv[2]);
    FcConfig *config = FcConfigCreate();
    char xml[4096];
    snprintf(xml, sizeof xml, "<?xml version=\"1.0\"?><fontconfig><cachedir>%s</cachedir></fontconfig>", argv[3]);
    FcConfigParseAndLoadFromMemory(config, (const FcChar8 *)xml, FcTrue);
    FcConfigSetRescanInterval(config, 0);
    char *dirs = strdup(argv[4]);
    for (char *dir = strtok(dirs, ","); dir; dir = strtok(NULL, ",")) FcConfigAppFontAddDir(config, (FcChar8 *)dir);
    gpointer fontmap = pango_ft2_font_map_new();
    pango_fc_font_map_set_config(fontmap, config);
    gpointer context = pango_font_map_create_context(fontmap);
    char description[256];
    snprintf(description, sizeof description, "%s 16", argv[1]);
    pango_context_set_font_description(context, pango_font_description_from_string(description));
    gpointer attrs = pango_attr_list_new();
    for (int i = 5; i < argc; i++) {
        long length = 0;
        char *text = read_file(argv[i], &length);
        if (!text || length == 0) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 66;
        }
        // The same text fontreg-bench times: the file repeated to at least 4 KiB.
        long sample = length;
        while (length < 4096) {
            text = realloc(text, length + sample + 1);
            memcpy(text + length, text, sample);
            length += sample;
            text[length] = 0;
        }
        GList *items = pango_itemize(context, text, 0, (int)length, attrs, NULL);
        long count = 0;
        for (GList *item = items; item; item = item->next) count++;
        g_list_free_full(items, pango_item_free);
        long calls = 0;
        double start = now(), elapsed = 0;
        if (seconds < 0) {
            // -N: exactly N calls, in counted_calls, for callgrind (scripts/callgrind-fallback.sh).
            calls = (long)-seconds;
            counted_calls(context, text, length, attrs, calls);
            elapsed = now() - start;
        } else {
            do {
                g_list_free_full(pango_itemize(context, text, 0, (int)length, attrs, NULL), pango_item_free);
                calls++;
                elapsed = now() - start;
            } while (elapsed < seconds * 1e9);
        }
        const char *name = strrchr(argv[i], '/');
        printf("%s %ld %ld %.1f\n", name ? name + 1 : argv[i], code_points(text, length), count,
               elapsed / calls / code_points(text, length));
        free(text);
    }
    return 0;
}
