import { useEffect, useRef, type ReactNode } from 'react';
import './layout.css';

/**
 * The one place at the bottom of the screen for the banners that wait for an answer (the update
 * prompt, the cookie banner): they stack instead of covering each other, and the page gets as much
 * room below its last control as the dock is high (`--dock-height`), so nothing stays under it.
 * Toasts have their own place at the top, under the header.
 */
export function BottomDock({ children }: { children: ReactNode }) {
  const dock = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = dock.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = element.offsetHeight;
      if (height > 0) root.style.setProperty('--dock-height', `${height}px`);
      else root.style.removeProperty('--dock-height');
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--dock-height');
    };
  }, []);

  return (
    <div ref={dock} className="bottom-dock">
      {children}
    </div>
  );
}
