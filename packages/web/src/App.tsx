import { type MouseEvent, useCallback, useEffect, useState } from "react"
import { ApiFailure, call, cookieCaller, messageOf } from "./api.ts"
import { Consent } from "./Consent.tsx"
import { Console } from "./Console.tsx"
import { Inbox } from "./Inbox.tsx"
import { base, navigate, routeOf, useLocation, w9TokenOf } from "./router.ts"
import { SignIn } from "./SignIn.tsx"
import { Claim } from "./screens/Claim.tsx"
import { Close } from "./screens/Close.tsx"
import { Consents } from "./screens/Consents.tsx"
import { Periods } from "./screens/Periods.tsx"
import { Reports } from "./screens/Reports.tsx"
import { Security } from "./screens/Security.tsx"
import { Sources } from "./screens/Sources.tsx"
import { W9Form } from "./screens/W9.tsx"

export interface Me {
  readonly type?: string
  readonly name?: string
  readonly role?: string | null
  readonly company_id?: string
  readonly scopes?: ReadonlyArray<string>
}

type Session = { readonly state: "loading" } | { readonly state: "out" } | { readonly state: "in"; readonly me: Me }

const link = (to: string) => (event: MouseEvent<HTMLAnchorElement>) => {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
  event.preventDefault()
  navigate(to)
}

export const App = () => {
  const location = useLocation()
  const route = routeOf(location.pathname)
  const [session, setSession] = useState<Session>({ state: "loading" })
  const [error, setError] = useState<string | null>(null)

  const refresh = useCallback(async () => {
    try {
      const me = await call<Me>(cookieCaller, "GET", "/v1/me")
      setSession({ state: "in", me: me.body })
    } catch (failure) {
      // 401: no session; 404 or 400 `company_required`: a firm member's console session, which acts
      // in no company of its own until it names a client (the console does that itself).
      const firmConsole = failure instanceof ApiFailure && (failure.status === 404 || failure.body.type === "company_required")
      if (failure instanceof ApiFailure && (failure.status === 401 || firmConsole)) setSession({ state: "out" })
      else {
        setSession({ state: "out" })
        setError(messageOf(failure))
      }
    }
  }, [])
  useEffect(() => void refresh(), [refresh])

  const signOut = async () => {
    try {
      await call(cookieCaller, "POST", "/v1/auth/sign-out", {})
    } catch (failure) {
      setError(messageOf(failure))
    }
    setSession({ state: "out" })
    navigate("/sign-in")
  }

  // The vendor's public W-9 page: no session, no app navigation (the vendor is no user of these books).
  if (route === "w9") {
    return (
      <>
        <a className="skip" href="#main">Skip to content</a>
        <header className="bar"><span className="brand">Ledger</span></header>
        <main id="main" tabIndex={-1}><W9Form token={w9TokenOf(location.pathname)} /></main>
      </>
    )
  }

  const signedIn = session.state === "in"
  const needsPerson = route === "inbox" || route === "consent" || route === "security" || route === "periods" || route === "reports" || route === "consents" || route === "sources"
  let main
  if (session.state === "loading") main = <p role="status">Loading…</p>
  else if (route === "console") main = <Console search={location.search} />
  else if (route === "close") main = <Close />
  else if (route === "claim") main = <Claim />
  else if (route === "not-found") main = <p>No such page. <a href={`${base}/`} onClick={link("/")}>Go to the inbox</a>.</p>
  else if (route === "sign-in" || route === "sign-in-email" || (needsPerson && !signedIn)) {
    main = <SignIn search={location.search} onSignedIn={async () => {
      await refresh()
      if (route === "sign-in" || route === "sign-in-email") navigate("/inbox")
    }} />
  } else if (route === "consent") main = <Consent search={location.search} />
  else if (route === "security") main = <Security />
  else if (route === "periods") main = <Periods />
  else if (route === "reports") main = <Reports />
  else if (route === "consents") main = <Consents />
  else if (route === "sources") main = <Sources />
  else main = <Inbox caller={cookieCaller} title="Approval inbox" />

  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="bar">
        <span className="brand">Ledger</span>
        <nav aria-label="Main">
          <a href={`${base}/inbox`} onClick={link("/inbox")} aria-current={route === "inbox" ? "page" : undefined}>Inbox</a>
          <a href={`${base}/reports`} onClick={link("/reports")} aria-current={route === "reports" ? "page" : undefined}>Reports</a>
          <a href={`${base}/periods`} onClick={link("/periods")} aria-current={route === "periods" ? "page" : undefined}>Periods</a>
          <a href={`${base}/consents`} onClick={link("/consents")} aria-current={route === "consents" ? "page" : undefined}>AI consents</a>
          <a href={`${base}/sources`} onClick={link("/sources")} aria-current={route === "sources" ? "page" : undefined}>Integrations</a>
          <a href={`${base}/security`} onClick={link("/security")} aria-current={route === "security" ? "page" : undefined}>Security</a>
          <a href={`${base}/console`} onClick={link("/console")} aria-current={route === "console" ? "page" : undefined}>Accountant console</a>
          <a href={`${base}/close`} onClick={link("/close")} aria-current={route === "close" ? "page" : undefined}>Close checklist</a>
        </nav>
        {signedIn
          ? <span className="who">{session.me.name ?? "Signed in"} <button type="button" onClick={() => void signOut()}>Sign out</button></span>
          : null}
      </header>
      {error === null ? null : <p role="alert" className="error">{error}</p>}
      <main id="main" tabIndex={-1}>{main}</main>
    </>
  )
}
