import { useEffect, useState } from 'react';
import { errorText } from '@/lib';

export interface ImportJobOptions<J> {
  /** The job as the server has it now. */
  fetch: (id: number) => Promise<J>;
  /** While true (parsing, committing), the job is asked for again every `pollMs`. */
  running: (job: J) => boolean;
  pollMs: number;
  /** Each answer of the polling, after it is shown (the item list reloads once the import is done). */
  onPolled?: (job: J) => void;
}

/**
 * The state of an import wizard (issue 40, item 4: order batches and item imports kept the same
 * steps each in its own words): upload → progress → preview → confirm → result. It holds the
 * job, the problem shown under the drop area and whether an upload is on its way, and follows a
 * running job until it stops. A failed poll is passed over: the next one asks again, and the
 * job's own status says when it failed.
 */
export function useImportJob<J extends { id: number }>({ fetch, running, pollMs, onPolled }: ImportJobOptions<J>) {
  const [job, setJob] = useState<J | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const isRunning = !!job && running(job);
  useEffect(() => {
    if (!isRunning || !job) return;
    const timer = setInterval(() => {
      fetch(job.id).then(
        (j) => {
          setJob(j);
          onPolled?.(j);
        },
        () => undefined,
      );
    }, pollMs);
    return () => clearInterval(timer);
  }, [isRunning, job?.id]); // eslint-disable-line react-hooks/exhaustive-deps -- one poll per running job

  return {
    job,
    setJob,
    problem,
    setProblem,
    /** An upload is on its way (the drop area waits). */
    busy,
    /**
     * The upload step, for `beforeUpload`: a file that is not .xlsx, or a `refusal` the page finds
     * (no customer chosen), is refused with its message; else `send` uploads it and answers the
     * job (its preview, or its parsing to follow). Always false: antd uploads nothing itself.
     */
    upload: async (file: File, onlyXlsx: string, refusal: string | null, send: (file: File) => Promise<J>) => {
      if (!/\.xlsx$/i.test(file.name)) {
        setProblem(onlyXlsx);
        return false;
      }
      if (refusal) {
        setProblem(refusal);
        return false;
      }
      setBusy(true);
      try {
        setJob(await send(file));
      } catch (e) {
        setProblem(errorText(e));
      } finally {
        setBusy(false);
      }
      return false;
    },
    /** The confirm step: `send` answers the job as it is after the confirmation (committing, or done). */
    commit: async (send: (job: J) => Promise<J>) => {
      if (!job) return;
      try {
        setJob(await send(job));
      } catch (e) {
        setProblem(errorText(e));
      }
    },
  };
}
