/** The token coin shown next to balances. */
export function CoinIcon({ className, size = 18 }: { className?: string; size?: number }) {
  return (
    <svg className={className} aria-hidden="true" viewBox="0 0 24 24" width={size} height={size}>
      <circle cx="12" cy="12" r="10" fill="#f5b301" />
      <circle cx="12" cy="12" r="7.5" fill="none" stroke="#c98a00" strokeWidth="1.5" />
      <text x="12" y="16" textAnchor="middle" fontSize="10" fontWeight="700" fill="#7a5200" fontFamily="system-ui, sans-serif">
        T
      </text>
    </svg>
  );
}
