import { useCallback, useState } from "react"
import { messageOf } from "./api.ts"

/** One user action at a time: `busy` while it runs, and the API's message when it fails. */
export const useAction = () => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await work()
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, error, run, clear: () => setError(null) }
}

/** The alert showing an action's error, or nothing. */
export const ErrorMessage = (props: { readonly error: string | null }) =>
  props.error === null ? null : <p role="alert" className="error">{props.error}</p>
