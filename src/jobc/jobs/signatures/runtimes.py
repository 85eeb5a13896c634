"""Other languages' runtimes: the error an R program stops with (Rscript then prints `Execution
halted`), and an exception the JVM's default handler reports (Spark, Java and Scala programs).
Formats from R's src/main/errors.c and OpenJDK's ThreadGroup.uncaughtException."""

from __future__ import annotations

import re

from jobc.jobs.signatures import Signature

SIGNATURES: tuple[Signature, ...] = (
    Signature(
        "R101",
        "r-error",
        "exception",
        "cause",
        ("Error in ",),
        re.compile(
            # `Error in CALL : MESSAGE`, the blank before the colon R's own; a call too long for the
            # line puts the message on the next one, indented (`Error in f(a,  : \n  message`)
            r"^Error in (?P<call>[^\n]{1,300}?) : ?(?P<message>[^\n]{0,500})$"
        ),
        "an R program stopping with an error (`stop()`, or a function it called): R's counterpart of "
        "an uncaught Python exception; with Rscript, `Execution halted` follows",
        'Error in socketConnection("localhost", port = port, server = TRUE, blocking = TRUE,  : \n'
        "  all connections are in use\n"
        "Calls: sc3 ... makePSOCKcluster -> newPSOCKnode -> socketConnection\n"
        "Execution halted",
        "Error in epoch 3: loss is nan, skipping the batch",
        "R (src/main/errors.c, verrorcall_dflt: `Error in %s : `, the message on the next line when "
        "the call is long)",
        ("call", "message"),
    ),
    Signature(
        "R102",
        "jvm-uncaught-exception",
        "exception",
        "cause",
        ('Exception in thread "',),
        re.compile(
            r'Exception in thread "(?P<thread>[^"\n]{1,200})" '
            r"(?P<type>(?:[A-Za-z_$][\w$]{0,100}\.){0,20}[A-Za-z_$][\w$]{0,100})"
            r"(?:: (?P<message>[^\n]{0,1000}))?"
        ),
        "a Java or Scala program (Spark's driver, a JVM tool) ending on an exception no code caught; "
        "`java.lang.OutOfMemoryError: Java heap space` is the JVM's heap (-Xmx), not the GPU's memory",
        'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n'
        "\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)",
        'Handled an exception in thread "main" and carried on',
        'OpenJDK (java.lang.ThreadGroup.uncaughtException: `Exception in thread "%s" ` and the '
        "throwable's stack trace)",
        ("thread", "type", "message"),
    ),
)
