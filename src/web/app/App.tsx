/** The customer app: providers and router. */
export function App() {
  return <p>Northstar Clearing</p>;
}
