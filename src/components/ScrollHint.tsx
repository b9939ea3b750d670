// A row that scrolls sideways when its content is wider than the screen (long tab labels in some
// languages), with a fade and an arrow on each side that has more to see: nothing is cut, and
// the user can tell there is more. The hints follow the scroll position and the row's size.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import './ScrollHint.css';

export function ScrollHint({ children, className = '' }: { children: ReactNode; className?: string }) {
  const track = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ start: false, end: false });
  useEffect(() => {
    const element = track.current;
    if (!element) return undefined;
    const update = () => {
      const start = element.scrollLeft > 1;
      const end = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setMore((now) => (now.start === start && now.end === end ? now : { start, end }));
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    resize?.observe(element);
    if (element.firstElementChild) resize?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, []);
  return (
    <div className={`scroll-hint ${className}`} data-more-start={more.start} data-more-end={more.end}>
      <div ref={track} className="scroll-hint-track">{children}</div>
    </div>
  );
}
