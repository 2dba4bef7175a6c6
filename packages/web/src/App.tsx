import { type MouseEvent, useCallback, useEffect, useState } from "react"
import { isClientError } from "@ledger/client"
import { ledger, messageOf, refusalStatus, type Success } from "./api.ts"
import { Consent } from "./Consent.tsx"
import { Console } from "./Console.tsx"
import { Inbox } from "./Inbox.tsx"
import { base, navigate, type Route, routeOf, useLocation, w9TokenOf } from "./router.ts"
import { SignIn } from "./SignIn.tsx"
import { Claim } from "./screens/Claim.tsx"
import { Close } from "./screens/Close.tsx"
import { Consents } from "./screens/Consents.tsx"
import { Periods } from "./screens/Periods.tsx"
import { Reports } from "./screens/Reports.tsx"
import { Security } from "./screens/Security.tsx"
import { Sources } from "./screens/Sources.tsx"
import { W9Form } from "./screens/W9.tsx"

type Me = Success<"getMe">

type Session = { readonly state: "loading" } | { readonly state: "out" } | { readonly state: "in"; readonly me: Me }

const link = (to: string) => (event: MouseEvent<HTMLAnchorElement>) => {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
  event.preventDefault()
  navigate(to)
}

/** Who is signed in (`GET /v1/me`), read on load and after signing in; signing out ends it. */
const useSession = () => {
  const [session, setSession] = useState<Session>({ state: "loading" })
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(async () => {
    try {
      setSession({ state: "in", me: await ledger.getMe() })
    } catch (failure) {
      // 401: no session; 404 or 400 `company_required`: a firm member's console session, which acts
      // in no company of its own until it names a client (the console does that itself).
      const status = refusalStatus(failure)
      const firmConsole = status === 404 || isClientError(failure, "company_required")
      setSession({ state: "out" })
      if (status !== 401 && !firmConsole) setError(messageOf(failure))
    }
  }, [])
  useEffect(() => void refresh(), [refresh])

  const signOut = async () => {
    try {
      await ledger.signOut()
    } catch (failure) {
      setError(messageOf(failure))
    }
    setSession({ state: "out" })
    navigate("/sign-in")
  }
  return { session, error, refresh, signOut }
}

/** The vendor's public W-9 page: no session, no app navigation (the vendor is no user of these books). */
const W9Page = (props: { readonly token: string }) => (
  <>
    <a className="skip" href="#main">Skip to content</a>
    <header className="bar"><span className="brand">Ledger</span></header>
    <main id="main" tabIndex={-1}><W9Form token={props.token} /></main>
  </>
)

/** The app's sections, in the order the bar lists them: each one's route and its link's words. */
const sections: ReadonlyArray<readonly [Route, string]> = [
  ["inbox", "Inbox"],
  ["reports", "Reports"],
  ["periods", "Periods"],
  ["consents", "AI consents"],
  ["sources", "Integrations"],
  ["security", "Security"],
  ["console", "Accountant console"],
  ["close", "Close checklist"]
]

const MainNav = (props: { readonly route: Route }) => (
  <nav aria-label="Main">
    {sections.map(([route, words]) => (
      <a key={route} href={`${base}/${route}`} onClick={link(`/${route}`)} aria-current={props.route === route ? "page" : undefined}>{words}</a>
    ))}
  </nav>
)

/** The screens that need a person's session: without one, the sign-in form shows in their place. */
const personRoutes: ReadonlySet<Route> = new Set<Route>(["inbox", "consent", "security", "periods", "reports", "consents", "sources"])

/** The screen a route shows, given the session. */
const screenOf = (route: Route, search: string, session: Session, refresh: () => Promise<void>) => {
  if (session.state === "loading") return <p role="status">Loading…</p>
  if (route === "console") return <Console search={search} />
  if (route === "close") return <Close />
  if (route === "claim") return <Claim />
  if (route === "not-found") return <p>No such page. <a href={`${base}/`} onClick={link("/")}>Go to the inbox</a>.</p>
  if (route === "sign-in" || route === "sign-in-email" || (personRoutes.has(route) && session.state !== "in")) {
    return <SignIn search={search} onSignedIn={async () => {
      await refresh()
      if (route === "sign-in" || route === "sign-in-email") navigate("/inbox")
    }} />
  }
  if (route === "consent") return <Consent search={search} />
  if (route === "security") return <Security />
  if (route === "periods") return <Periods />
  if (route === "reports") return <Reports />
  if (route === "consents") return <Consents />
  if (route === "sources") return <Sources />
  return <Inbox client={ledger} title="Approval inbox" />
}

export const App = () => {
  const location = useLocation()
  const route = routeOf(location.pathname)
  const { session, error, refresh, signOut } = useSession()

  if (route === "w9") return <W9Page token={w9TokenOf(location.pathname)} />

  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="bar">
        <span className="brand">Ledger</span>
        <MainNav route={route} />
        {session.state === "in"
          ? <span className="who">{session.me.name ?? "Signed in"} <button type="button" onClick={() => void signOut()}>Sign out</button></span>
          : null}
      </header>
      {error === null ? null : <p role="alert" className="error">{error}</p>}
      <main id="main" tabIndex={-1}>{screenOf(route, location.search, session, refresh)}</main>
    </>
  )
}
